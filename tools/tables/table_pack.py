"""Pack an Expert table (PYT2, tools/build_tables.py) into the form a board's ROMFS carries
(PYZ1, read by firmware/picoyacht/table_packed.py): the same values, bit for bit, in about
a third of the bytes, each still found without reading the rest.

    python tools/table_pack.py [--tables tables] [NAME.bin ...]   (prints each one's size)

Where the bytes go: a PYT2 group (lower mask, Yahtzee-bonus flag) holds per upper mask a
16-bit value and one byte per live upper-total class, a smooth curve over the classes.
Groups that differ by one filled lower box hold nearly the same curves. So each group
except the empty one names a parent one level down (one box fewer, or the flag off), and
each row (group, upper mask) is stored as the change from its parent's row: the value's
change (a Rice code) and, along the classes, the change of the curves' difference (a
length-limited canonical Huffman code, with an escape for the rare large step). A row is
decoded by adding up the rows of its parents' chain: a few dozen codes a level.

Layout after the PYT2 header, its upper-total map and class map (copied unchanged, magic
PACKED): u8 LUT bits, u8 escape bits, u16 0; the decoding LUT (lut()); per group u24 bit
offset of its rows, u8 Rice bits of their value changes, u16 parent (0xFFFF: none) and
i16 value shift; where each row
starts (row_index); then the bit stream, most significant bit first, with 4 bytes of slack.
"""

import argparse
import heapq
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
from paths import ROOT  # noqa: E402

import numpy as np  # noqa: E402

from picoyacht.strategy_table import PACKED, TABLE_MAGIC, header_size
from picoyacht.table_packed import ESCAPE as ESCAPE_FLAG
from picoyacht.table_packed import layout

ESCAPE = 1000  # the escape's symbol here: no step of -127..127
LUT_BITS = 10
ESCAPE_BITS = 10  # zigzag of a step: |step| <= 510 (bytes that differ by at most 255, twice)
NONE = 0xFFFF


class Plain:
    """A PYT2 file's header, its groups' values (base[g, u]) and live bytes (live[g, :])."""

    def __init__(self, data):
        if data[:4] != TABLE_MAGIC:
            raise ValueError("not a PYT2 table")
        self.data = data
        self.rid, self.joker, self.nb, self.at = data[4], data[5], data[6], data[7]
        self.ngroups = int.from_bytes(data[10:12], "little")
        self.gsize = int.from_bytes(data[12:14], "little")
        self.head = header_size(self.at)
        self.uoff = np.frombuffer(data[16:144], dtype="<u2").astype(np.int64)
        self.nlive = np.diff(np.append(self.uoff, self.gsize - 128))
        body = np.frombuffer(data[self.head:], dtype=np.uint8)
        body = body.reshape(self.ngroups, self.gsize).astype(np.int64)
        self.base = body[:, 0:128:2] | body[:, 1:128:2] << 8
        self.live = body[:, 128:]

    def level(self, g):
        """Filled lower boxes plus the Yahtzee-bonus flag: a parent is one level down."""
        nl = self.nb - 6
        if g < 1 << nl:
            return bin(g).count("1")
        return bin(g - (1 << nl)).count("1") + 2  # the Yahtzee box filled, and the flag


def steps(plain, g, p):
    """(shift, changes, steps): group g's typical value change from parent p (the median
    over its rows); per row (upper mask order) its value change less the shift; and the
    class steps of all its rows, one after another (row u's are plain.nlive[u] long)."""
    dl = plain.live[g] - (plain.live[p] if p != NONE else 0)
    db = plain.base[g] - (plain.base[p] if p != NONE else 0)
    shift = int(np.median(db)) if p != NONE else 0
    return shift, db - shift, _steps(plain, dl[None, :])[0]


def _steps(plain, d):
    """Per row of d (differences of groups' live bytes): each class's step from the one
    before it in its upper mask's row (the first from 0)."""
    s = np.diff(d, axis=1, prepend=0)
    starts = plain.uoff[plain.nlive > 0]
    s[:, starts] = d[:, starts]
    return s


def choose_parents(plain):
    """Each group's parent: the group one level down whose curves its own differ least
    from (a proxy of the codes' bits; ties: the lowest index); the empty group has none."""
    levels = np.array([plain.level(g) for g in range(plain.ngroups)])
    parents = []
    for g in range(plain.ngroups):
        below = np.nonzero(levels == levels[g] - 1)[0]
        if not len(below):
            parents.append(NONE)
            continue
        s = _steps(plain, plain.live[g][None, :] - plain.live[below])
        cost = np.log2(1.0 + 2.0 * np.abs(s)).sum(axis=1)
        parents.append(int(below[np.argmin(cost)]))
    return parents


def huffman_lengths(counts, limit):
    """{symbol: code length} of a Huffman code over counts whose longest code is at most
    `limit`: the rarest symbols go to ESCAPE (coded raw after it) until it fits."""
    counts = dict(counts)
    while True:
        lengths = _lengths(counts)
        if max(lengths.values()) <= limit:
            return lengths
        rare = min((c, s) for s, c in counts.items() if s != ESCAPE)[1]
        counts[ESCAPE] = counts.get(ESCAPE, 0) + counts.pop(rare)


def _lengths(counts):
    if len(counts) == 1:
        return {s: 1 for s in counts}
    heap = [(c, i, (s,)) for i, (s, c) in enumerate(sorted(counts.items()))]
    heapq.heapify(heap)
    depth = dict.fromkeys(counts, 0)
    n = len(heap)
    while len(heap) > 1:
        c1, _, a = heapq.heappop(heap)
        c2, _, b = heapq.heappop(heap)
        for s in a + b:
            depth[s] += 1
        heapq.heappush(heap, (c1 + c2, n, a + b))
        n += 1
    return depth


def canonical(lengths):
    """{symbol: (code, length)}, canonical: by length, then symbol."""
    codes, code, prev = {}, 0, 0
    for s, n in sorted(lengths.items(), key=lambda x: (x[1], x[0])):
        code <<= n - prev
        codes[s] = (code, n)
        code += 1
        prev = n
    return codes


def lut(codes, bits):
    """The decoder's table: for every `bits`-bit window, the codes it starts with, up to
    three: u8 their bits (| ESCAPE_FLAG: an escape, alone), then each one's step + 128
    (0: no code there)."""
    by_code = {(code, n): sym for sym, (code, n) in codes.items()}
    out = bytearray(4 << bits)
    for w in range(1 << bits):
        used, steps = 0, []
        while len(steps) < 3:
            for n in range(1, bits - used + 1):
                sym = by_code.get(((w >> (bits - used - n)) & ((1 << n) - 1), n))
                if sym is not None:
                    break
            else:
                break  # the next code does not end inside the window
            if sym == ESCAPE:
                if not steps:
                    used = n | ESCAPE_FLAG
                break
            used += n
            steps.append(sym + 128)
        out[4 * w:4 * w + 1 + len(steps)] = bytes([used] + steps)
    return bytes(out)


def zigzag(v):
    return np.where(v >= 0, 2 * v, -2 * v - 1)


def bits_of(values, widths):
    """The bits of each value (most significant first, `widths` of them), in order."""
    values = np.asarray(values, dtype=np.uint64)
    widths = np.asarray(widths, dtype=np.int64)
    shift = widths[:, None] - 1 - np.arange(64)[None, :]
    bits = (values[:, None] >> np.maximum(shift, 0).astype(np.uint64)) & np.uint64(1)
    return bits[shift >= 0].astype(np.uint8)


def row_index(at, root):
    """Where each of a group's rows starts (at: bit offsets from its first, and its end):
    the root group's 64 as u16; any other's every eighth as u16, then the lengths in bits
    of the seven rows after each as u8 (a row there is short: a change from its parent)."""
    if at[-1] >= 1 << 16:
        raise ValueError("a group's rows take %d bits: at most 65535" % at[-1])
    if root:
        return np.array(at[:64], dtype="<u2").tobytes()
    lengths = [at[u + 1] - at[u] for u in range(64) if u % 8 != 7]
    if max(lengths) > 255:
        raise ValueError("a row of %d bits: the index holds at most 255" % max(lengths))
    return np.array(at[0:64:8], dtype="<u2").tobytes() + bytes(lengths)


def best_rice(values):
    z = zigzag(values)
    return min(range(17), key=lambda k: int((z >> k).sum()) + len(z) * (k + 1))


class Codes:
    """The step codes as arrays indexed by step + 512: (code, length), the escape's raw
    zigzag folded into the code."""

    def __init__(self, codes):
        self.code = np.zeros(1024, dtype=np.uint64)
        self.length = np.zeros(1024, dtype=np.int64)
        esc, n = codes[ESCAPE]
        for v in range(-511, 512):
            if v in codes:
                self.code[v + 512], self.length[v + 512] = codes[v]
            else:
                self.code[v + 512] = esc << ESCAPE_BITS | int(zigzag(v))
                self.length[v + 512] = n + ESCAPE_BITS


def rice(value, k):
    """(values, widths): a value's Rice code (zigzag: q ones, a zero, k bits), the ones
    in pieces of at most 32."""
    z = int(zigzag(value))
    q = z >> k
    out = [((1 << 32) - 1, 32)] * (q // 32)
    out.append((((1 << (q % 32 + 1)) - 2) << k | (z & ((1 << k) - 1)), q % 32 + 1 + k))
    return [v for v, _ in out], [w for _, w in out]


def group_bits(changes, steps, codes, k, nlive):
    """(bits, where each row starts and where the last ends) of one group: per row its
    Rice-coded value change, then its classes' step codes."""
    ends = np.cumsum(nlive)
    values, widths, at = [], [], [0]
    for u in range(64):
        v, w = rice(changes[u], k)
        s = steps[ends[u] - nlive[u]:ends[u]] + 512
        values += [np.array(v, dtype=np.uint64), codes.code[s]]
        widths += [np.array(w, dtype=np.int64), codes.length[s]]
        at.append(at[-1] + sum(w) + int(codes.length[s].sum()))
    return bits_of(np.concatenate(values), np.concatenate(widths)), at


def pack(data):
    """The PYZ1 bytes of a PYT2 table."""
    plain = Plain(bytes(data))
    parents = choose_parents(plain)
    assert parents[0] == NONE and NONE not in parents[1:]  # the empty group is the root
    shifts, changes, steps_ = zip(*(steps(plain, g, p) for g, p in enumerate(parents)),
                                  strict=True)
    every = np.concatenate(steps_)
    vals, counts = np.unique(every, return_counts=True)
    tally = {}
    for v, c in zip(vals.tolist(), counts.tolist(), strict=True):
        key = v if -127 <= v <= 127 else ESCAPE
        tally[key] = tally.get(key, 0) + c
    codes = canonical(huffman_lengths(tally, LUT_BITS))
    table = Codes(codes)
    ks = [best_rice(c) for c in changes]
    chunks, offsets, where, n = [], [], [], 0
    for g in range(plain.ngroups):
        bits, at = group_bits(changes[g], steps_[g], table, ks[g], plain.nlive)
        chunks.append(bits)
        offsets.append(n)
        n += len(bits)
        where.append(row_index(at, g == 0))
    if n >= 1 << 24:
        raise ValueError("the stream is longer than 16 Mbit")
    stream = np.packbits(np.concatenate(chunks)).tobytes()
    head = bytearray(data[:plain.head])
    head[:4] = PACKED
    index = b"".join(o.to_bytes(3, "little") + bytes((k,)) + p.to_bytes(2, "little")
                     + d.to_bytes(2, "little", signed=True)
                     for o, k, p, d in zip(offsets, ks, parents, shifts, strict=True))
    out = bytes(head) + bytes((LUT_BITS, ESCAPE_BITS, 0, 0)) + lut(codes, LUT_BITS) + index
    out += b"".join(where)
    assert layout(plain.head, plain.ngroups, LUT_BITS)[-1] == len(out)
    return out + stream + bytes(4)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default=str(ROOT / "tables"))
    ap.add_argument("names", nargs="*")
    a = ap.parse_args(argv)
    names = a.names or sorted(p.name for p in Path(a.tables).glob("*.bin"))
    for name in names:
        raw = (Path(a.tables) / name).read_bytes()
        packed = pack(raw)
        print("%-20s %8d -> %7d bytes (%.2fx)" % (name, len(raw), len(packed),
                                                  len(raw) / len(packed)))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
