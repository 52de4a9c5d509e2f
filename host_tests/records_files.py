"""Records files made byte by byte, as old firmware wrote them (format 2) or as a crafted
or damaged file may hold them (formats 3 and 4), for the tests of saves.Records."""

import struct

from picoyacht import rules


def records_v2(entries, last=b""):
    """Format 2: per rule set games, best and its name; entries {rule set: (games, best,
    name)}."""
    out = bytearray(b"R\x02" + bytes([rules.COUNT]))
    for r in range(rules.COUNT):
        games, best, name = entries.get(r, (0, 0, ""))
        nb = name.encode()
        out += struct.pack("<HHB", games, best, len(nb)) + nb
    return bytes(out + bytes([len(last)]) + last)


def records_v3(blocks, last=b""):
    """Format 3: per rule set games, totals counted, their sum, how many top scores, and
    each score with its name. A block is (games, best, name), a top of one with nothing
    averaged, or (games, totals, sum, [(score, name), ...]); a name given as bytes is
    written as it is."""
    out = bytearray(b"R\x03" + bytes([rules.COUNT]))
    for r in range(rules.COUNT):
        block = blocks.get(r, (0, 0, 0, []))
        if len(block) == 3:
            games, best, name = block
            block = (games, 0, 0, [(best, name)] if best or name else [])
        games, n, total, top = block
        out += struct.pack("<HHIB", games, n, total, len(top))
        for score, name in top:
            nb = name if isinstance(name, bytes) else name.encode()
            out += struct.pack("<HB", score, len(nb)) + nb
    return bytes(out + bytes([len(last)]) + last)


def records_v4(blocks, last=b"", wallets=()):
    """Format 4: format 3, then the wallets, each (credits, name); a name given as bytes is
    written as it is."""
    out = bytearray(b"R\x04" + records_v3(blocks, last)[2:])
    out.append(len(wallets))
    for credits, name in wallets:
        nb = name if isinstance(name, bytes) else name.encode()
        out += struct.pack("<HB", credits, len(nb)) + nb
    return bytes(out)
