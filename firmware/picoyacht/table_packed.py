"""Expert's table packed (PYZ1): the values of a PYT2 table (strategy_table), bit for bit,
in about a third of its bytes, read in place from a board's memory-mapped ROMFS.

tools/tables/table_pack.py writes it and says how: each group of rows names a parent group one
filled box down, and each row is the change from its parent's row, entropy coded. A value
is found by decoding its row along the parents' chain, only as far along the row as the
value's class, into one preallocated row (which the next values of the same row reuse:
a turn asks for several upper totals of each). No allocation: ints and a memoryview.

Layout, offsets in bytes from the file's start, H = strategy_table.header_size(bonus_at):
    0   b"PYZ1", then PYT2's header, upper-total map and class map, unchanged, to H
    H   u8 LUT bits (10), u8 escape bits (10), u16 0
    H+4 the LUT: per 10-bit window of the stream, the codes it starts with (up to three):
        u8 their bits (| 0x80: an escape, alone), then per code u8 its step + 128 (0: none)
        per group: u24 bit offset of its rows in the stream, u8 Rice bits of its rows'
        value changes, u16 parent (0xFFFF: none), i16 shift: added to each value change
        where each row starts, in bits from its group's first: group 0 (the root, no
        parent) u16 per upper mask; every other group u16 per eighth upper mask, then
        u8 lengths of the seven rows after each
        the stream, most significant bit first: per row, the value's change (Rice,
        zigzag), then one code per live class (the step of the curves' difference; an
        escape code is followed by the step's zigzag in 10 bits); 4 bytes of slack
"""

from array import array

from micropython import const

ESCAPE = const(0x80)  # flag on a LUT entry's bits: the step follows raw
_LUT_BITS = const(10)
_LUT_MASK = const(1023)
_ESC_BITS = const(10)
_NONE = const(0xFFFF)
_SLOTS = const(144)  # strategy_table's, folded here (a test holds the copies equal)
# What reads cost, in COST units (picoyacht.engine's: about a microsecond on the emulated
# Pico), a little above what decoding there takes (tools/emu/bench_pico.py --only tables
# measures it): a value, a row decoded, each row of its chain, each class along one.
_C_VALUE = const(140)
_C_FETCH = const(400)
_C_LEVEL = const(260)
_C_CLASS = const(36)


def layout(header, ngroups, lut_bits=_LUT_BITS):
    """(LUT, group index, row index, stream): where each part starts, after the PYT2
    header of `header` bytes."""
    lut = header + 4
    groups = lut + (4 << lut_bits)
    rows = groups + 8 * ngroups
    return lut, groups, rows, rows + 128 + 72 * (ngroups - 1)


def mapped(f):
    """The whole file as a memoryview: in place where the file system maps it (ROMFS),
    else read (the simulator, the tests); ValueError where it cannot be held."""
    try:
        return memoryview(f)
    except TypeError:
        pass
    f.seek(0)
    try:
        return memoryview(f.read())
    except MemoryError:
        raise ValueError("a packed table is read in place, from ROMFS") from None


class Packed:
    """The values of a PYZ1 file, for strategy_table.Table (whose header fields and
    lgroup it reads): Table.value answers with Packed.value, the same numbers."""

    def __init__(self, f, table):
        mv = self.mv = mapped(f)
        self.t = table
        h = table.header
        if mv[h] != _LUT_BITS or mv[h + 1] != _ESC_BITS:
            raise ValueError("a packed table of another layout")
        self.at = table.at
        self.full = table.full
        self.shift = 16 - table.bshift
        self.dnum = table.dnum
        self.lut, self.gidx, self.ridx, self.stream = layout(h, table.ngroups)
        # one row's live bytes as decoded (a LUT window may run two codes past the need)
        self.row = array("h", bytes(2 * (self.at + 3)))
        self.row_g = -1
        self.row_u = -1
        self.have = 0  # how many of row[] are decoded
        self.rbase = 0

    def value(self, mask, up, y):
        if mask == self.full:
            return 0
        t = self.t
        t.work += _C_VALUE
        u = mask & 63
        g = t.lgroup(mask, y)
        slot = self.mv[_SLOTS + (self.at + 1) * u + up]
        need = 0 if slot >= 254 else slot + 1  # 255: the bonus decided; 254: no such total
        if g != self.row_g or u != self.row_u or need > self.have:
            self.fetch(g, u, need)
        v = self.rbase << self.shift
        if need:
            v += (self.row[slot] * self.dnum + 127) // 255
        return v

    def fetch(self, g, u, need):
        """Row (group g, upper mask u): its value and its first `need` live bytes: the
        rows along g's chain of parents, their steps added up, then summed along."""
        mv = self.mv
        row = self.row
        for i in range(need + 2 if need else 0):
            row[i] = 0
        base = 0
        levels = 0
        h = g
        while h != _NONE:
            e = self.gidx + 8 * h
            bit = mv[e] | mv[e + 1] << 8 | mv[e + 2] << 16
            if h:
                r = self.ridx + 56 + 72 * h + 2 * (u >> 3)
                bit += mv[r] | mv[r + 1] << 8
                r = self.ridx + 72 + 72 * h + 7 * (u >> 3)  # the lengths before row u
                for j in range(r, r + (u & 7)):
                    bit += mv[j]
            else:
                r = self.ridx + 2 * u
                bit += mv[r] | mv[r + 1] << 8
            shift = mv[e + 6] | mv[e + 7] << 8
            base += self.add_row(bit, mv[e + 3], need) + (
                shift - 65536 if shift & 0x8000 else shift)
            h = mv[e + 4] | mv[e + 5] << 8
            levels += 1
        self.t.reads += levels
        self.t.work += _C_FETCH + levels * (_C_LEVEL + _C_CLASS * need)
        levels <<= 7  # each level added its steps + 128
        run = 0
        for i in range(need):
            run += row[i] - levels
            row[i] = run
        self.row_g = g
        self.row_u = u
        self.have = need
        self.rbase = base

    def add_row(self, bit, k, need):
        """Adds the steps + 128 of one stored row's first `need` classes into self.row;
        returns its value change (Rice code of k bits)."""
        mv = self.mv
        pos = self.stream + (bit >> 3)
        nb = 8 - (bit & 7)
        acc = mv[pos]
        pos += 1
        q = 0  # Rice: ones, a zero, then k bits
        while True:
            if nb == 0:
                acc = mv[pos]
                pos += 1
                nb = 8
            nb -= 1
            if not (acc >> nb) & 1:
                break
            q += 1
        while nb < k:  # acc holds nb < k <= 16 bits: masks keep it a small int
            acc = (acc & 0xFFFF) << 8 | mv[pos]
            pos += 1
            nb += 8
        nb -= k
        z = q << k | (acc >> nb) & ((1 << k) - 1)
        lut = self.lut
        row = self.row
        i = 0
        while i < need:
            if nb < _LUT_BITS:
                acc = (acc & 0x3FF) << 16 | mv[pos] << 8 | mv[pos + 1]
                pos += 2
                nb += 16
            t = lut + (((acc >> (nb - _LUT_BITS)) & _LUT_MASK) << 2)
            n = mv[t]
            if n & ESCAPE:
                nb -= n & 0x7F
                while nb < _ESC_BITS:
                    acc = (acc & 0x3FF) << 8 | mv[pos]
                    pos += 1
                    nb += 8
                nb -= _ESC_BITS
                s = (acc >> nb) & 1023
                row[i] += 127 - (s >> 1) if s & 1 else 128 + (s >> 1)
                i += 1
                continue
            nb -= n
            row[i] += mv[t + 1]
            s = mv[t + 2]
            if s:
                row[i + 1] += s
                s = mv[t + 3]
                if s:
                    row[i + 2] += s
                    i += 3
                else:
                    i += 2
            else:
                i += 1
        return -(z >> 1) - 1 if z & 1 else z >> 1
