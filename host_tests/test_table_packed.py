"""Expert's tables packed for a board's ROMFS (tools/tables/table_pack.py writes them,
picoyacht.table_packed reads them): every value is the plain table's, in every position,
on CPython and on the MicroPython unix port; reading allocates nothing; and the packed
form is what makes every table fit the Pico 2 (test_uf2.py holds the layout)."""

import sys

import pytest

from picoyacht import strategy_table

if sys.implementation.name != "micropython":
    from conftest import ROOT, micropython_call

    sys.path.insert(0, str(ROOT / "tools"))
    import build_tables as bt
    import table_pack

SLOTS = 144  # where a table file's class map starts (strategy_table's layout)


def differences(plain_path, packed_path):
    """(positions compared, the first (mask, up, y) where the packed table's value is not
    the plain table's, or None), over every position the plain file's layout holds: each
    filled-box mask, each upper total its upper boxes can make, each Yahtzee-bonus flag."""
    a = strategy_table.Table.open(plain_path)
    b = strategy_table.Table.open(packed_path)
    row = bytearray(a.at + 1)
    ybit = a.ybit_low() + 6 if a.joker != 255 else -1
    n = 0
    try:
        with open(plain_path, "rb") as f:
            for mask in range(a.full):
                f.seek(SLOTS + (a.at + 1) * (mask & 63))
                f.readinto(row)
                for y in (0, 1) if ybit >= 0 and mask >> ybit & 1 else (0,):
                    for up in range(a.at + 1):
                        if row[up] == 254:  # a total these upper boxes cannot make
                            continue
                        n += 1
                        if a.value(mask, up, y) != b.value(mask, up, y):
                            return n, (mask, up, y)
    finally:
        a.close()
        b.close()
    return n, None


def reads_allocate(packed_path):
    """Bytes that a hundred seeded decisions' reads allocate, after ten to warm up (the
    first read with the Yahtzee-bonus flag looks up where its box is, once)."""
    import table_probe

    from picoyacht import rules

    from allocs import allocated

    t = strategy_table.Table.open(packed_path)
    rs = rules.RULESETS[t.rid]
    rng = table_probe.Seeded(3)
    spots = [table_probe.position(rs, t, rng) for _ in range(110)]
    at = [0]

    def one():
        mask, up, y = spots[at[0]]
        at[0] += 1
        table_probe.decision(t, rs, mask, up, y)

    return allocated(one, 100, warmup=10)


def build(tmp_path, name):
    """tmp_path/<name>.bin and its packed form <name>.pyz: the table solved afresh."""
    rid, joker, sharp = bt.TABLES[name]
    spec = bt.Spec(rid, joker, sharp=sharp)
    plain = bt.encode(spec, bt.solve(spec))
    (tmp_path / (name + ".bin")).write_bytes(plain)
    (tmp_path / (name + ".pyz")).write_bytes(table_pack.pack(plain))
    return str(tmp_path / (name + ".bin")), str(tmp_path / (name + ".pyz"))


@pytest.fixture(scope="module")
def yahtzee(tmp_path_factory):
    return build(tmp_path_factory.mktemp("tables"), "yahtzee_0")


def positions(plain_path):
    """Every position a table's layout holds, counted from its class map with NumPy."""
    return positions_of(open(plain_path, "rb").read())


def positions_of(data):
    import io

    import numpy as np

    at = data[7]
    slot = np.frombuffer(data[SLOTS:SLOTS + 64 * (at + 1)], dtype=np.uint8).reshape(64, -1)
    ups = (slot != 254).sum(axis=1)
    masks = np.arange((1 << data[6]) - 1)
    n = int(ups[masks & 63].sum())
    if data[5] != 255:  # the Yahtzee-bonus flag doubles the masks with the Yahtzee box
        yb = strategy_table.Table(io.BytesIO(data)).ybit_low() + 6
        n += int(ups[masks[(masks >> yb) & 1 == 1] & 63].sum())
    return n


def test_every_packed_yahtzee_value_is_the_plain_one(yahtzee):
    """Every position of the Forced joker's table (its Yahtzee-bonus groups too), and the
    packed file under half the plain one. Control: one bit flipped in the packed stream
    makes a value differ."""
    plain, packed = yahtzee
    assert differences(plain, packed) == (positions(plain), None)
    data = bytearray(open(packed, "rb").read())
    assert len(data) < len(open(plain, "rb").read()) // 2
    data[len(data) // 2] ^= 0x10
    broken = packed + ".broken"
    open(broken, "wb").write(data)
    assert differences(plain, broken)[1] is not None


def test_every_packed_yahtzee_value_is_the_plain_one_on_micropython(yahtzee):
    """The same comparison run by the MicroPython unix port's integers and memoryview."""
    plain, packed = yahtzee
    assert micropython_call("test_table_packed", "differences", plain, packed) == (
        positions(plain), None)


def test_every_packed_deluxe_value_is_the_plain_one():
    """Deluxe's layout (six dice, bonus at 84: longer class rows; no joker groups), every
    position, against the builder's decoding of the plain file (CPython)."""
    import io

    spec = bt.Spec(*bt.TABLES["deluxe"][:2])
    plain = bt.encode(spec, bt.solve(spec))
    want = bt.decode(spec, plain)
    b = strategy_table.Table(io.BytesIO(table_pack.pack(plain)))
    slot = bt.np.frombuffer(plain[SLOTS:SLOTS + 64 * (spec.at + 1)], dtype=bt.np.uint8)
    slot = slot.reshape(64, -1)
    n = 0
    for mask in range(spec.full):
        ups = bt.np.nonzero(slot[mask & 63] != 254)[0].tolist()
        got = [b.value(mask, up, 0) for up in ups]
        assert got == want[mask, 0, ups].tolist(), mask
        n += len(ups)
    assert n == positions_of(plain)


def test_reading_a_packed_table_allocates_nothing(yahtzee):
    """A hundred decisions' reads on the unix port: 0 bytes. Control: a fetch that made a
    row per call (bytearray in fetch) allocates on every decision."""
    assert micropython_call("test_table_packed", "reads_allocate", yahtzee[1]) == 0


def test_a_packed_table_is_found_and_serves_as_the_plain_one(yahtzee, tmp_path):
    """load() opens a packed file under a table's name, for the same games."""
    from picoyacht import rules
    from picoyacht.game import Game

    from scripted import LcgRoller

    (tmp_path / "yahtzee_0.bin").write_bytes(open(yahtzee[1], "rb").read())
    for joker, served in ((rules.JOKER_FORCED, True), (rules.JOKER_FREE, True),
                          (rules.JOKER_ORIGINAL, False)):
        g = Game(rules.YAHTZEE, ["a"], roller=LcgRoller(1), options=rules.Options(joker=joker))
        t = strategy_table.load(g, dirs=(str(tmp_path),))
        assert (t is not None) == served
        if t is not None:
            assert t.value(0, 0, 0) == strategy_table.Table.open(yahtzee[0]).value(0, 0, 0)
