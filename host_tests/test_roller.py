"""Roller: uniform, deterministic, replayable, and allocation-free on the Pico.

A twin module: tests marked micropython run on CPython and on the MicroPython unix port
(host_tests/mp/README.md)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from picoyacht.roller import Roller, seed_from_entropy

from allocs import allocated

# Chi-square critical values at p = 0.001 (upper tail), from standard tables.
CHI2_CRIT_5DOF = 20.515
CHI2_CRIT_35DOF = 66.619

SEED = 20240611
SMALL_INT_MAX = (1 << 30) - 1  # largest small int on a 32-bit MicroPython port
SMALL_INT_MIN = -(1 << 30)


def chi_square(counts, expected):
    return sum((c - expected) ** 2 / expected for c in counts)


def face_counts(d6, n):
    counts = [0] * 6
    for _ in range(n):
        counts[d6() - 1] += 1
    return counts


def test_faces_uniform_chi_square():
    n = 600_000  # 100,000 expected per face
    counts = face_counts(Roller(SEED).d6, n)
    assert min(counts) > 0
    assert chi_square(counts, n / 6) < CHI2_CRIT_5DOF


def test_consecutive_pairs_uniform_chi_square():
    # Non-overlapping ordered pairs (a, b): 36 cells, 35 dof, independent samples.
    pairs = 360_000  # 10,000 expected per cell
    d6 = Roller(SEED + 1).d6
    counts = [0] * 36
    for _ in range(pairs):
        a = d6()
        counts[(a - 1) * 6 + d6() - 1] += 1
    assert chi_square(counts, pairs / 36) < CHI2_CRIT_35DOF


def test_chi_square_detects_a_mildly_biased_die():
    # The same statistic must reject a die that shows a six 1% too rarely,
    # or the two tests above prove nothing.
    r = Roller(SEED)

    def biased():
        v = r.d6()
        if v == 6 and r.rand15() < 328:  # ~1% of sixes become ones
            return 1
        return v

    n = 600_000
    assert chi_square(face_counts(biased, n), n / 6) > CHI2_CRIT_5DOF


@pytest.mark.micropython
def test_same_seed_same_sequence():
    a, b = Roller(7), Roller(7)
    assert [a.d6() for _ in range(500)] == [b.d6() for _ in range(500)]


@pytest.mark.micropython
def test_seed_is_kept_and_reseed_restarts():
    r = Roller(99)
    first = _rolls(r, 100)
    assert r.seed == 99
    r.reseed(1234)
    assert r.seed == 1234
    assert _rolls(r, 100) == _rolls(Roller(1234), 100)
    r.reseed(99)
    assert _rolls(r, 100) == first


def _rolls(r, n):
    return [r.d6() for _ in range(n)]


@pytest.mark.micropython
def test_different_seeds_differ():
    seeds = list(range(300)) + [2**30 - 1, 2**31, 2**32 - 2, -1, -3, 10**30]
    seqs = {tuple(_rolls(Roller(s), 40)) for s in seeds}
    assert len(seqs) == len(seeds)


@pytest.mark.micropython
def test_distinct_seeds_give_distinct_states():
    seeds = list(range(5000)) + [1 << k for k in range(32)]
    states = {Roller(s).getstate() for s in seeds}
    assert len(states) == len(set(seeds))


def check_round_trip(seed, skip, n):
    """After `skip` rolls, another Roller set to the state rolls the same n dice."""
    r = Roller(seed)
    _rolls(r, skip)
    s = r.getstate()
    assert 0 < s < 1 << 32
    ahead = _rolls(r, n)
    other = Roller(1)
    other.setstate(s)
    assert _rolls(other, n) == ahead
    assert other.getstate() == r.getstate()


@pytest.mark.micropython
def test_getstate_setstate_round_trip():
    check_round_trip(SEED, 37, 200)


@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(0, 50))
def test_state_round_trip_any_seed(seed, skip):
    check_round_trip(seed, skip, 20)


@pytest.mark.micropython
def test_setstate_rejects_impossible_states():
    r = Roller(1)
    for bad in (0, -5, 1 << 32):
        try:
            r.setstate(bad)
        except ValueError:
            continue
        raise AssertionError("setstate accepted %r" % bad)


@pytest.mark.micropython
def test_lanes_match_a_plain_32bit_xorshift():
    # The 16-bit-lane arithmetic must be exactly xorshift32 (13, 17, 5), whose
    # period 2**32 - 1 is known; a slip in the split would silently break it.
    r = Roller(SEED)
    x = r.getstate()
    for _ in range(2000):
        x ^= (x << 13) & 0xFFFFFFFF
        x ^= x >> 17
        x ^= (x << 5) & 0xFFFFFFFF
        r.rand15()
        assert r.getstate() == x


class Checked(int):
    """An int whose every arithmetic result must fit a 32-bit port's small int."""

    ops = 0
    peak = 0

    def _wrap(op):
        def f(self, other):
            v = op(int(self), int(other))
            assert SMALL_INT_MIN <= v <= SMALL_INT_MAX, "intermediate %d leaves 30 bits" % v
            Checked.ops += 1
            Checked.peak = max(Checked.peak, v)
            return Checked(v)

        def rf(self, other):
            return f(Checked(other), self)

        return f, rf

    __add__, __radd__ = _wrap(lambda a, b: a + b)
    __sub__, __rsub__ = _wrap(lambda a, b: a - b)
    __mul__, __rmul__ = _wrap(lambda a, b: a * b)
    __and__, __rand__ = _wrap(lambda a, b: a & b)
    __or__, __ror__ = _wrap(lambda a, b: a | b)
    __xor__, __rxor__ = _wrap(lambda a, b: a ^ b)
    __lshift__, __rlshift__ = _wrap(lambda a, b: a << b)
    __rshift__, __rrshift__ = _wrap(lambda a, b: a >> b)


def test_every_intermediate_fits_in_30_bits():
    plain = Roller(SEED)
    r = Roller(SEED)
    r._hi, r._lo = Checked(r._hi), Checked(r._lo)
    Checked.ops = Checked.peak = 0
    n = 20_000
    got = [r.d6() for _ in range(n)]
    # The instrumentation really ran, stayed attached, and changed nothing.
    assert Checked.ops > 10 * n
    assert type(r._hi) is Checked and type(r._lo) is Checked
    assert got == _rolls(plain, n)
    assert 1 << 28 < Checked.peak <= SMALL_INT_MAX  # the x*_SCRAMBLE product is near the top


def test_seeding_from_a_30bit_seed_stays_small():
    for s in (0, 1, 12345, SMALL_INT_MAX):
        r = Roller(Checked(s))
        assert type(r._hi) is Checked and type(r._lo) is Checked
        plain = Roller(s)
        assert (r._hi, r._lo) == (plain._hi, plain._lo)  # getstate() itself may be 32-bit


def test_checked_int_catches_an_overflow():
    try:
        Checked(1 << 20) * (1 << 12)
    except AssertionError:
        return
    raise AssertionError("Checked let a 32-bit product through")


@pytest.mark.micropython
def test_seed_from_entropy_uses_urandom_bytes():
    def fake(n):
        assert n == 4
        return bytes([0x01, 0x02, 0x03, 0xC4])

    assert seed_from_entropy(fake, 5) == 0x04030201  # top two bits of byte 3 dropped
    assert seed_from_entropy(lambda n: b"\xff" * n) == SMALL_INT_MAX


@pytest.mark.micropython
def test_seed_from_entropy_falls_back():
    def broken(n):
        raise OSError(19)

    assert seed_from_entropy(broken, 1234) == 1234
    assert seed_from_entropy(None, 1234) == 1234
    assert seed_from_entropy(lambda n: b"\x01", 77) == 77  # short read
    assert seed_from_entropy(broken, lambda: 4321) == 4321
    big = seed_from_entropy(broken, (1 << 40) + 5)
    assert 0 <= big <= SMALL_INT_MAX and big != 5
    assert 0 <= seed_from_entropy(broken, -3) <= SMALL_INT_MAX


def rolls(seed, n):
    """The first n d6 rolls for a seed, as digits (compared across interpreters)."""
    return "".join(str(v) for v in _rolls(Roller(seed), n))


def test_micropython_rolls_identically():
    from conftest import micropython_call

    assert micropython_call("test_roller", "rolls", SEED, 1000) == rolls(SEED, 1000)


@pytest.mark.micropython(only=True)
def test_rolling_allocates_nothing():
    r = Roller(SEED)
    assert allocated(r.d6, 10000, warmup=10) == 0
