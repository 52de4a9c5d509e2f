"""tools/emu/power_model.py: from the bench's busy time and ranged part currents to hours and
days."""

import re

import power_model as pm
import pytest

from conftest import FIRMWARE

PLAY = {"idle": {"play": {"ms_max": 9.0, "ms_mean": 0.5, "passes": 300},
                 "menu": {"ms_max": 40.0, "ms_mean": 1.0, "passes": 100},
                 "card": {"ms_max": 0.4}},  # an old bench's screen: no mean, left out
        "actions": {"roll": {"ms_median": 12.0}, "hold": {"ms_median": 6.0}}}


def test_busy_fractions_from_the_mean_pass_not_the_longest():
    """The mean idle pass over all screens, weighted by their passes, once per loop
    period, plus the sampler's IRQ and the actions. Breaks if the longest pass is used
    (the figure then saturated at 1.0 and the bench played no part)."""
    play, idle = pm.busy_fractions(PLAY, loop_ms=10, pace_ms=3000, irq_us=50)
    mean = (0.5 * 300 + 1.0 * 100) / 400
    assert idle == pytest.approx(mean / 10 + 0.05 / pm.SAMPLE_MS)
    assert play == pytest.approx(idle + 9.0 / 3000)
    assert pm.busy_fractions(PLAY, loop_ms=2)[1] == pytest.approx(mean / 2)
    slow = dict(PLAY, idle={"play": {"ms_mean": 15.0, "passes": 10}})
    assert pm.busy_fractions(slow, loop_ms=10)[1] == 1.0  # passes back to back
    with pytest.raises(ValueError):
        pm.busy_fractions({"idle": {}, "actions": {}})


def test_the_loop_period_is_the_boards():
    src = (FIRMWARE / "picoyacht" / "board_pico.py").read_text()
    assert int(re.search(r"^LOOP_MS = const\((\d+)\)", src, re.M).group(1)) == pm.LOOP_MS
    cfg = (FIRMWARE / "config.py").read_text()
    assert int(re.search(r"^SAMPLE_MS = (\d+)", cfg, re.M).group(1)) == pm.SAMPLE_MS


def test_the_play_screens_light_a_fraction_of_the_panel():
    assert 0.02 < pm.lit_fraction() < 0.6


def test_every_input_is_a_range_with_its_source():
    for name, (low, high, worse, source) in pm.INPUTS.items():
        assert 0 < low < high, name
        assert worse in ("low", "high") and len(source) > 20, name
        assert pm.value(name, True) != pm.value(name, False)


def test_the_range_brackets_and_follows_the_load():
    """Worst below best; a busier CPU, a brighter panel, a bigger diode drop or a weaker
    regulator each cost hours. Breaks if an input is read at its wrong end."""
    e = pm.estimate(PLAY, "Pico", "3xAAA", lit=0.2)
    worst, best = e["play_hours"]
    assert worst < best and e["play_ma"][0] > e["play_ma"][1]
    busy = dict(PLAY, idle={"play": {"ms_mean": 5.0, "passes": 10}})
    assert pm.estimate(busy, "Pico", "3xAAA", lit=0.2)["play_hours"][0] < worst
    assert pm.estimate(PLAY, "Pico", "3xAAA", lit=0.5)["play_hours"][0] < worst
    rail = pm.rail_ma(0.1, pm.BOARDS["Pico"], 0.2, True)
    hours = pm.play_hours(rail, "3xAAA", True)
    assert hours == pytest.approx(
        900 * (3 * 1.18 - 0.32) * 0.80 / (rail * 3.3), rel=1e-6)  # the diode and regulator
    assert pm.play_hours(rail, "lipo", True) > hours


def test_standby_of_each_board_with_and_without_the_latch():
    """DORMANT alone lasts weeks on 3 x AAA on every board; the latch let go draws a
    thousandth of that. Breaks if the latch's leakage or a board's DORMANT figure is
    dropped from the model."""
    for board in pm.BOARDS:
        e = pm.estimate(PLAY, board, "3xAAA", lit=0.2)
        assert all(d < 120 for d in e["standby_days"]), board
        assert all(off < asleep / 100 for off, asleep in zip(e["off_ma"], e["asleep_ma"],
                                                             strict=True))
        assert e["off_days"][0] > 365 * 10  # past the cells' own shelf life
    assert pm.estimate(PLAY, "Pico 2", "3xAAA", lit=0.2)["standby_days"][1] > \
        pm.estimate(PLAY, "Pico", "3xAAA", lit=0.2)["standby_days"][1]


def test_report_names_every_board_on_every_power_option():
    out, lines = pm.report({"1.28.0": {"play": PLAY}})
    assert set(out) == {"%s, %s" % (b, c) for b in pm.BOARDS for c in pm.CELLS}
    assert len(lines) == 3 + len(out)
    assert pm.report({})[0] == {}
    assert pm.report({"1.28.0": {"play": {"error": "timed out"}}})[0] == {}
