"""Debouncer: synthetic contact traces in, exactly one event per physical edge out.

Physical model (times in integer ms). A press closes the contact at t0 and opens
it at t1 >= t0 + 20 (a 20 ms tap is the shortest); each edge may bounce for up
to 10 ms after it (arbitrary level changes in [t0, t0 + 10) and [t1, t1 + 10)),
and presses are at least 20 ms apart. A glitch flips one sample in a quiet
stretch. Sampling is every 1, 2 or 5 ms, or jittered within 1..5 ms.

A twin module: tests marked micropython run on CPython and on the MicroPython unix port
(host_tests/mp/README.md); hypothesis properties run on CPython.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from picoyacht.debounce import (
    EMPTY,
    LONG,
    PRESS,
    RELEASE,
    REPEAT,
    Debouncer,
    button_of,
    event,
    kind_of,
)
from picoyacht.roller import Roller
from picoyacht.ticks import TICKS_PERIOD, ticks_add, ticks_diff

from allocs import allocated

D = Debouncer.DEBOUNCE_MS
WRAP = TICKS_PERIOD


# --- trace synthesis -------------------------------------------------------------


def press_levels(span, presses):
    """Raw level per ms for one button. presses: (t0, t1, toggles_in, toggles_out),
    toggles are ms offsets (< 10) after the edge where the bouncing contact flips."""
    lv = bytearray(span)
    for t0, t1, tin, tout in presses:
        for t in range(t0, t1):
            lv[t] = 1 ^ (sum(1 for o in tin if o <= t - t0) & 1) if t < t0 + 10 else 1
        for o in range(1, 10):
            t = t1 + o
            if t < span:
                lv[t] = sum(1 for x in tout if x <= o) & 1
    return lv


def settle_time(lv, a, b):
    """When the level last changed within [a, b): where the stable part starts."""
    s = a
    for t in range(a + 1, b):
        if lv[t] != lv[t - 1]:
            s = t
    return s


def regular_times(span, period, phase=0):
    return list(range(phase, span, period))


def jitter_times(span, gaps):
    times, t, i = [], 0, 0
    while t < span:
        times.append(t)
        t += gaps[i % len(gaps)]
        i += 1
    return times


def simulate(levels, times, base=0, glitches=None, nbuttons=None, **kw):
    """Feed sampled levels (list per button; None = never pressed) into a Debouncer.

    Returns [(t, event)] with t the unwrapped sample time in ms."""
    n = nbuttons or len(levels)
    d = Debouncer(n, **kw)
    glitches = glitches or {}
    out = []
    for k, t in enumerate(times):
        m = 0
        for b, lv in enumerate(levels):
            if lv is not None and lv[t]:
                m |= 1 << b
        m ^= glitches.get(k, 0)
        d.update(m, (base + t) & (WRAP - 1))
        ev = d.get()
        while ev != EMPTY:
            out.append((t, ev))
            ev = d.get()
    assert d.dropped == 0
    return out


def edges_of(events, button):
    return [(t, kind_of(e)) for t, e in events if button_of(e) == button]


def check_presses(events, button, presses, lv, pmax, span):
    """Exactly one PRESS and one RELEASE per physical press, in its own window,
    within the latency bound. Returns the (press, release) latencies."""
    got = [(t, k) for t, k in edges_of(events, button) if k in (PRESS, RELEASE)]
    assert [k for _, k in got] == [PRESS, RELEASE] * len(presses), got
    lat = []
    prev_event = -(10**9)
    for i, (t0, t1, _, _) in enumerate(presses):
        nxt = presses[i + 1][0] if i + 1 < len(presses) else span
        tp, tr = got[2 * i][0], got[2 * i + 1][0]
        sp, sr = settle_time(lv, t0, t1), settle_time(lv, t1, nxt)
        assert t0 <= tp < t1 and t1 <= tr < nxt
        assert tp <= max(sp + 2 * pmax, prev_event + D + pmax), (tp, sp, prev_event)
        assert tr <= max(sr + 2 * pmax, tp + D + pmax), (tr, sr, tp)
        lat.append((tp - sp, tr - sr))
        prev_event = tr
    return lat


# --- ticks ----------------------------------------------------------------------


@pytest.mark.micropython
def test_tick_arithmetic_matches_modular_arithmetic_exhaustively():
    """_diff/_add avoid every intermediate >= 2**30 (a long int on the Pico) by case
    analysis; every case against plain modular arithmetic, on small periods."""
    for period in (2, 16, 64):
        for a in range(period):
            for b in range(period):
                want = (a - b) % period
                want -= period if want >= period // 2 else 0
                assert ticks_diff(a, b, period) == want
            for delta in range(-period // 2, period // 2 + 1):
                assert ticks_add(a, delta, period) == (a + delta) % period


@pytest.mark.micropython
def test_ticks_diff_and_add_wrap_at_2_pow_30():
    assert ticks_diff(5, WRAP - 5) == 10
    assert ticks_diff(WRAP - 5, 5) == -10
    assert ticks_diff(100, 40) == 60
    assert ticks_diff(0, WRAP // 2) == -(WRAP // 2)
    assert ticks_add(WRAP - 3, 10) == 7
    assert ticks_add(2, -5) == WRAP - 3
    assert ticks_diff(3, 250, period=256) == 9


# --- fixed worst cases ----------------------------------------------------------

BOUNCES = [
    (),  # clean
    tuple(range(1, 10)),  # flips every ms for 10 ms
    (1, 9),  # touches for 1 ms, lifts for 8 ms, then closes
    (5,),  # 5 ms one way, then 5 ms the other
    (4, 9),
    (2, 3, 7),
]


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
@pytest.mark.parametrize("bin_", BOUNCES)
@pytest.mark.parametrize("bout", BOUNCES)
def test_20ms_tap_with_10ms_bounce_on_both_edges_every_phase(period, bin_, bout):
    span = 120
    presses = [(40, 60, bin_, bout)]
    lv = press_levels(span, presses)
    for phase in range(period):
        events = simulate([lv], regular_times(span, period, phase))
        check_presses(events, 0, presses, lv, period, span)
        assert len(events) == 2


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
def test_single_sample_glitches_make_no_event(period):
    span = 400
    times = regular_times(span, period)
    idle = simulate([bytearray(span)], times, glitches={k: 1 for k in range(3, len(times), 3)})
    assert idle == []
    presses = [(20, 380, (), ())]
    lv = press_levels(span, presses)
    glitches = {k: 1 for k in range(60 // period, 360 // period, 3)}  # while held
    held = simulate([lv], times, glitches=glitches, long_mask=0)
    check_presses(held, 0, presses, lv, period, span)


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
def test_two_sample_glitch_is_a_real_edge(period):
    # The rule's other side: two agreeing samples are an edge. Shows the glitch
    # test above is not passing merely because nothing ever fires.
    times = regular_times(200, period)
    k = 50 // period
    events = simulate([bytearray(200)], times, glitches={k: 1, k + 1: 1})
    assert [kind_of(e) for _, e in events] == [PRESS, RELEASE]


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
def test_press_latency_after_quiet_is_one_to_two_periods(period):
    # A clean press at every phase: the event comes P..2P-1 ms after the contact
    # settles (integer ms), i.e. within one sample period plus one confirming sample.
    lats = set()
    for t0 in range(40, 40 + period):
        presses = [(t0, t0 + 50, (), ())]
        lv = press_levels(200, presses)
        events = simulate([lv], regular_times(200, period))
        lats.update(
            lat for pair in check_presses(events, 0, presses, lv, period, 200) for lat in pair
        )
    assert min(lats) == period and max(lats) == 2 * period - 1


@pytest.mark.micropython
def test_press_right_after_release_waits_for_the_lockout():
    # A clean re-press 1 ms after a release event is held back until the lockout
    # ends, then reported at once: delayed, never lost.
    span = 200
    lv = press_levels(span, [(20, 60, (), ()), (62, 120, (), ())])
    events = simulate([lv], regular_times(span, 1))
    got = edges_of(events, 0)
    assert [k for _, k in got] == [PRESS, RELEASE, PRESS, RELEASE]
    t_release = got[1][0]
    assert t_release == 61
    assert got[2][0] == t_release + D


@pytest.mark.micropython
def test_two_buttons_at_once():
    span = 300
    a = [(20, 150, (1, 3, 6), (2, 8))]
    b = [(25, 60, (4,), ()), (90, 200, (), (1, 2, 3, 4, 5))]
    la, lb = press_levels(span, a), press_levels(span, b)
    for period in (1, 2, 5):
        events = simulate([la, None, lb], regular_times(span, period))
        check_presses(events, 0, a, la, period, span)
        check_presses(events, 2, b, lb, period, span)
        assert not edges_of(events, 1)


# --- long press and auto-repeat ---------------------------------------------------


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
def test_long_press_fires_once_after_long_ms(period):
    span = 1400
    presses = [(20, 1100, (2, 5), (3,))]
    lv = press_levels(span, presses)
    events = simulate([lv], regular_times(span, period))
    got = edges_of(events, 0)
    assert [k for _, k in got] == [PRESS, LONG, RELEASE]
    tp, tl = got[0][0], got[1][0]
    assert Debouncer.LONG_MS <= tl - tp < Debouncer.LONG_MS + period


@pytest.mark.micropython
def test_short_of_long_ms_gives_no_long():
    span = 900
    presses = [(20, 20 + Debouncer.LONG_MS - 5, (), ())]
    events = simulate([press_levels(span, presses)], regular_times(span, 1))
    assert [kind_of(e) for _, e in events] == [PRESS, RELEASE]


@pytest.mark.micropython
@pytest.mark.parametrize("gaps", [[1], [2], [5], [3, 4, 2, 5, 4]])
def test_auto_repeat_schedule(gaps):
    span = 1600
    presses = [(20, 1300, (1, 2), ())]
    lv = press_levels(span, presses)
    times = jitter_times(span, gaps)
    events = simulate([None, lv], times, repeat_mask=0b10)
    got = edges_of(events, 1)
    kinds = [k for _, k in got]
    assert kinds[0] == PRESS and kinds[-1] == RELEASE and LONG not in kinds
    tp, tr = got[0][0], got[-1][0]
    # REPEAT at the first sample on or after each tick of a fixed 120 ms schedule:
    # late samples delay one repeat but never shift the ones after it.
    nominal, expected = tp + Debouncer.REPEAT_DELAY_MS, []
    while True:
        at = next(t for t in times if t >= nominal)
        if at >= tr:
            break
        expected.append(at)
        nominal += Debouncer.REPEAT_MS
    assert [t for t, k in got if k == REPEAT] == expected
    assert len(expected) == 8  # (1300 - ~25 - 400) / 120 + 1


@pytest.mark.micropython
def test_repeat_after_a_stalled_loop_does_not_burst():
    d = Debouncer(1, repeat_mask=1)
    for t in range(0, 30):
        d.update(1, t)
    assert d.get() == event(PRESS, 0)
    d.update(1, 1500)  # the main loop was busy for ~1.5 s
    d.update(1, 1501)
    assert d.get() == event(REPEAT, 0)
    assert d.get() == EMPTY
    d.update(1, 1500 + Debouncer.REPEAT_MS)
    assert d.get() == event(REPEAT, 0)


@pytest.mark.micropython
def test_long_mask_can_include_repeating_buttons():
    d = Debouncer(2, repeat_mask=0b01, long_mask=0b11)
    assert d.long_mask == 0b11
    assert Debouncer(2, repeat_mask=0b01).long_mask == 0b10


@pytest.mark.micropython
@pytest.mark.parametrize("period", [1, 2, 5])
def test_hold_across_the_tick_wrap(period):
    span = 1600
    lv = press_levels(span, [(20, 1300, (3,), (2, 7))])
    times = regular_times(span, period)
    plain = simulate([lv, lv], times, repeat_mask=0b10)
    for base in (WRAP - 25, WRAP - 500, WRAP - 1299):
        assert simulate([lv, lv], times, base=base, repeat_mask=0b10) == plain
    assert {kind_of(e) for _, e in plain} == {PRESS, RELEASE, LONG, REPEAT}


# --- property: any bounce within spec, any sampling --------------------------------


@st.composite
def press_train(draw):
    presses = []
    t = draw(st.integers(20, 50))
    for _ in range(draw(st.integers(1, 4))):
        dur = draw(st.integers(20, 90))
        tin = tuple(sorted(draw(st.sets(st.integers(1, 9), max_size=9))))
        tout = tuple(sorted(draw(st.sets(st.integers(1, 9), max_size=9))))
        presses.append((t, t + dur, tin, tout))
        t += dur + draw(st.integers(20, 70))
    return presses, t


@st.composite
def sampling(draw):
    if draw(st.booleans()):
        p = draw(st.sampled_from([1, 2, 5]))
        return ("regular", p, draw(st.integers(0, p - 1)))
    gaps = draw(st.lists(st.integers(1, 5), min_size=1, max_size=12))
    return ("jitter", max(gaps), gaps)


def quiet_samples(lv, times):
    """Sample indices whose neighbours sit in the same stretch, settled >= 20 ms."""
    since, last = [], 0  # since[t]: when the level last changed at or before t
    for t in range(len(lv)):
        if t and lv[t] != lv[t - 1]:
            last = t
        since.append(last)
    return [k for k in range(1, len(times) - 1) if since[times[k + 1]] <= times[k - 1] - 20]


@settings(max_examples=150, deadline=None)
@given(press_train(), press_train(), sampling(), st.data())
def test_any_bounce_within_spec_gives_one_press_and_one_release(a, b, smp, data):
    (pa, ea), (pb, eb) = a, b
    span = max(ea, eb) + 30
    la, lb = press_levels(span, pa), press_levels(span, pb)
    kind, pmax, arg = smp
    times = regular_times(span, pmax, arg) if kind == "regular" else jitter_times(span, arg)
    # single-sample glitches in quiet stretches, never two within two samples
    glitches = {}
    for bit, lv in ((1, la), (8, lb)):
        quiet = quiet_samples(lv, times)
        if quiet:
            picks = data.draw(st.lists(st.sampled_from(quiet), max_size=6, unique=True))
            for k in sorted(picks):
                if not any(glitches.get(j, 0) & bit for j in (k - 2, k - 1)):
                    glitches[k] = glitches.get(k, 0) | bit
    levels = [la, None, None, lb]
    events = simulate(levels, times, glitches=glitches, long_mask=0)
    check_presses(events, 0, pa, la, pmax, span)
    check_presses(events, 3, pb, lb, pmax, span)
    assert len(events) == 2 * (len(pa) + len(pb))
    # ...and the same wherever the tick counter wraps
    base = (WRAP - data.draw(st.integers(0, span))) & (WRAP - 1)
    assert simulate(levels, times, base=base, glitches=glitches, long_mask=0) == events


# --- queue -------------------------------------------------------------------------


@pytest.mark.micropython
def test_event_encoding():
    d = Debouncer(16)
    d.update(0x8001, 0)
    d.update(0x8001, 1)
    assert (d.get(), d.get()) == (event(PRESS, 0), event(PRESS, 15)) == (0x10, 0x1F)
    assert event(PRESS, 0) == 0x10 and event(REPEAT, 15) == 0x4F
    assert kind_of(event(LONG, 9)) == LONG and button_of(event(LONG, 9)) == 9
    assert len({PRESS, RELEASE, LONG, REPEAT, EMPTY}) == 5 and min(PRESS, RELEASE) > 0


@pytest.mark.micropython
def test_queue_is_fifo_and_counts_drops_when_full():
    d = Debouncer(16)
    n = Debouncer.QUEUE_LEN
    t = 0
    for t in range(0, 40 * (n // 32), 40):  # fill with presses and releases, never reading
        d.update(0xFFFF, t)
        d.update(0xFFFF, t + 1)
        d.update(0, t + 20)
        d.update(0, t + 21)
    t += 40
    assert d.pending() == n and d.dropped == 0
    d.update(0xFFFF, t)
    d.update(0xFFFF, t + 1)
    assert d.dropped == 16 and d.pending() == n
    got = [d.get() for _ in range(n)]
    assert got == ([event(PRESS, i) for i in range(16)] + [event(RELEASE, i) for i in range(16)])
    assert d.get() == EMPTY
    d.update(0, t + 30)
    d.update(0, t + 31)
    assert d.pending() == 16
    assert [d.get() for _ in range(16)] == [event(RELEASE, i) for i in range(16)]
    assert d.get() == EMPTY and d.pressed == 0


@pytest.mark.micropython
def test_rejects_bad_button_counts():
    for n in (0, 17):
        with pytest.raises(ValueError):
            Debouncer(n)


# --- a representative trace, on both interpreters ----------------------------------
# Four buttons (1 and 2 auto-repeat, like Up/Down), sampled every 2 ms for 20 s, starting
# just below the 2**30 tick wrap: taps with up to 10 ms of bounce on both edges, one-sample
# glitches, chords, long holds. Randomness comes from the project's Roller so both
# interpreters build the very same trace.

NBUTTONS = 4
REPEAT_MASK = 0b0110
PERIOD_MS = 2
START = (1 << 30) - 3000  # wraps 3 s into the trace
SAMPLES = 10000


def physical_presses(seed=4242, span=SAMPLES * PERIOD_MS):
    """Per button: a list of (t0, t1, bounce_in, bounce_out); times in ms from 0."""
    r = Roller(seed)
    out = []
    for _ in range(NBUTTONS):
        presses = []
        t = 30 + (r.rand15() % 200)
        while True:
            if r.rand15() % 8 == 0:
                dur = 500 + r.rand15() % 900  # long hold: LONG or REPEAT events
            else:
                dur = 20 + r.rand15() % 120
            t1 = t + dur
            if t1 + 60 > span:
                break
            presses.append((t, t1, r.rand15() % 11, r.rand15() % 11))
            t = t1 + 20 + r.rand15() % 400
        out.append(presses)
    return out


def build_masks(presses, span=SAMPLES * PERIOD_MS):
    """The raw mask seen by each sample (one every PERIOD_MS ms from 0): bit b is
    button b's contact, bounce and glitches included, decided per ms."""
    masks = bytearray(SAMPLES)
    r = Roller(99)

    def put(t, bit, on):
        if t % PERIOD_MS == 0 and t < span:
            k = t // PERIOD_MS
            masks[k] = (masks[k] | bit) if on else (masks[k] & ~bit)

    for b in range(NBUTTONS):
        bit = 1 << b
        prev_end = 0
        for t0, t1, bin_, bout in presses[b]:
            for t in range(t0, t1):
                # contact closed, except random opens while the closing edge bounces
                put(t, bit, not (t0 < t < t0 + bin_ and r.rand15() & 1))
            for t in range(t1 + 1, t1 + bout):
                if r.rand15() & 1:  # random closes while the opening edge bounces
                    put(t, bit, True)
            # a 1 ms glitch in the quiet middle of the gap before, and of the press
            if t0 - prev_end > 60:
                put((prev_end + t0) // 2, bit, True)
            if t1 - t0 > 60:
                put((t0 + t1) // 2, bit, False)
            prev_end = t1 + bout
    return masks


def run(masks, emit, start=START):
    """Feed the samples; call emit(sample_index, event) for each event."""
    d = Debouncer(NBUTTONS, repeat_mask=REPEAT_MASK)
    now = start
    for k in range(len(masks)):
        d.update(masks[k], now)
        ev = d.get()
        while ev >= 0:
            emit(k, ev)
            ev = d.get()
        now = ticks_add(now, PERIOD_MS)


def trace():
    """[(sample index, event)] of the representative trace (compared across interpreters)."""
    events = []
    run(build_masks(physical_presses()), lambda k, ev: events.append((k, ev)))
    return events


@pytest.mark.micropython
def test_representative_trace_is_sane():
    presses = physical_presses()
    events = trace()
    # one press and release per physical press
    for b in range(NBUTTONS):
        kinds = [kind_of(e) for _, e in events if button_of(e) == b]
        assert kinds.count(PRESS) == kinds.count(RELEASE) == len(presses[b])
    assert {kind_of(e) for _, e in events} == {PRESS, RELEASE, LONG, REPEAT}


def test_micropython_gives_the_same_trace():
    from conftest import micropython_call

    assert micropython_call("test_debounce", "trace") == trace()


@pytest.mark.micropython(only=True)
def test_feeding_the_trace_allocates_nothing():
    masks = build_masks(physical_presses())
    d = Debouncer(NBUTTONS, repeat_mask=REPEAT_MASK)
    seen = bytearray(8)  # event counts by kind, kept without allocating
    at = [START, 0]  # time, sample index: small ints stored in place

    def sample():
        k = at[1]
        d.update(masks[k], at[0])
        ev = d.get()
        while ev >= 0:
            seen[ev >> 4] = (seen[ev >> 4] + 1) & 0xFF
            ev = d.get()
        at[0] = ticks_add(at[0], PERIOD_MS)
        at[1] = (k + 1) % SAMPLES

    assert allocated(sample, SAMPLES, warmup=SAMPLES) == 0
    assert seen[PRESS] and seen[RELEASE]  # the samples really made events


@pytest.mark.micropython
def test_skipping_quiet_samples_changes_no_event():
    """board_pico's poll() feeds only samples that quiet() says could change something:
    random presses, holds (long and repeat included) and bounces give the same events,
    and the same state after every sample, as feeding them all."""
    r = Roller(5)
    every = Debouncer(4, repeat_mask=0b0100)
    some = Debouncer(4, repeat_mask=0b0100)
    raw = 0
    skipped = 0
    for t in range(0, 40000, 2):
        if r.rand15() % 60 == 0:
            raw ^= 1 << (r.rand15() % 4)
        every.update(raw, t)
        if some.quiet(raw):
            skipped += 1
        else:
            some.update(raw, t)
        assert some.pressed == every.pressed
        ev = every.get()
        while ev != EMPTY:
            assert some.get() == ev
            ev = every.get()
        assert some.get() == EMPTY
    assert skipped > 1000  # the fast path was taken
