"""How long the cells last: a power model from the emulated Pico's busy time and part currents.

    hours of play   = the cells' energy to their end voltage, through the Schottky diode and
                      the Pico's buck-boost regulator, / the 3.3 V rail's power while playing
    days of standby = battery mAh / battery current asleep (DORMANT) / 24
    with the latch  = the same with the soft-power latch (hardware/BOM.md) let go

Every input below is a range (low, high) with its source; the model gives the worst case
(each input at its end that shortens the life) and the best case, so the README quotes a
range. Where no datasheet gives a figure the source says "estimate" and why the range is
that wide: a builder's meter (README, "Battery life") replaces it.

The CPU's busy share comes from `make bench-pico`'s 1-player game on the emulated Pico
(tools/emu/bench_pico.py play()): the mean idle pass (nothing pressed), once per loop period,
plus each action's pass once per player's move. Between passes the core waits in WFE
(time.sleep_ms on the rp2 port), so only the passes run it at full current. The display's
current scales with its lit pixels, counted in the real frames of host_tests/golden, at
the firmware's contrast while playing (0xCF).

    python tools/emu/power_model.py [--bench build/bench_pico.json]
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "host_tests" / "golden"
BENCH = ROOT / "build" / "bench_pico.json"

LOOP_MS = 10  # board_pico.LOOP_MS: the loop's period while a Timer samples the buttons
SAMPLE_MS = 2  # config.SAMPLE_MS: the Timer's period
PLAY_FRAMES = ("play_ready.hex", "play_rolled.hex", "play_held.hex", "card_p1.hex")
RAIL_V = 3.3

# name: (low, high, which end is worse for the cells, source)
INPUTS = {
    "pace_ms": (2000, 5000, "low",
                "estimate: a player's move (hold, roll, box) every 2-5 s while playing"),
    "sampler_irq_us": (40, 100, "high",
                       "estimate: the sampling Timer's hard IRQ (a Python callback) at 125"
                       " MHz; the bench times the loop's passes, not the IRQ"),
    "chip_static_ma": (1.3, 2.0, "high",
                       "estimate: RP2040 board with its clocks stopped but not DORMANT, flash"
                       " in standby, on the 3.3 V rail"),
    "chip_wfe_ma_per_mhz": (0.030, 0.045, "high",
                            "estimate: clocks, PLLs and bus running with the core in WFE"),
    "chip_busy_ma_per_mhz": (0.12, 0.17, "high",
                             "estimate, bracketing published bench figures of Pico boards at"
                             " default clocks (about 20-27 mA busy at 125 MHz)"),
    "oled_base_ma": (0.3, 0.8, "high",
                     "estimate: SSD1306 logic and charge pump with the panel dark (the"
                     " datasheet's IDD 0.18-0.3 mA plus the pump's own loss)"),
    "oled_full_ma": (9.0, 13.0, "high",
                     "published bench measurements of 0.96in SSD1306 modules: all pixels"
                     " lit at contrast 0xCF, from 3.3 V, with the charge pump on"),
    "regulator_eff": (0.80, 0.90, "low",
                      "RT6150B datasheet (the Pico's buck-boost): efficiency curves at"
                      " 10-50 mA out, 3-4.5 V in, power-save mode"),
    "diode_v": (0.22, 0.32, "high",
                "1N5817 datasheet: typical forward voltage at 10-50 mA, 25 C"),
    "aaa_mah": (900, 1100, "low",
                "alkaline AAA makers' datasheets (e.g. Energizer E92): capacity at a 25 mA"
                " constant drain to 0.9 V a cell"),
    "aaa_mean_v": (1.18, 1.25, "low",
                   "the same discharge curves: a cell's mean voltage over that discharge"
                   " (alkaline sags from 1.5 V to 0.9 V)"),
    "lipo_mah": (1700, 1800, "low", "103450 cell makers' datasheets: minimum and typical"),
    "lipo_mean_v": (3.65, 3.75, "low", "LiPo discharge curve at 0.02 C: mean voltage to 3.0 V"),
    "dormant_pico_ma": (0.8, 1.3, "high",
                        "Pico board in DORMANT from 5 V: 0.9 mA measured by MicroPython's"
                        " maintainers when DORMANT came to the rp2 port; Raspberry Pi Pico"
                        " datasheet's dormant figures of the same order"),
    "dormant_pico_w_ma": (0.8, 1.5, "high",
                          "estimate: the Pico's figure, the wireless chip held off (WL_ON"
                          " low) adding its leakage"),
    "dormant_pico2_ma": (0.3, 1.3, "high",
                         "estimate: the RP2350's low-power states draw less than the RP2040's"
                         " DORMANT; the board's regulator and divider still draw; no board"
                         " figure published that we found"),
    "oled_sleep_ma": (0.01, 0.1, "high",
                      "SSD1306 datasheet: sleep current 10 uA max; the module's own"
                      " regulator adds up to about 0.1 mA on some boards"),
    "latch_off_ma": (0.0001, 0.001, "high",
                     "AO3401A datasheet: drain leakage IDSS, 1 uA max at 25 C"),
}

# The boards: the chip's clock while playing, how much of the emulated RP2040's busy time it
# takes (the RP2350's Cortex-M33 at 150 MHz runs the same bytecode in about 0.8 of it:
# estimate), and its DORMANT input.
BOARDS = {
    "Pico": {"mhz": 125, "speed": 1.0, "dormant": "dormant_pico_ma"},
    "Pico W": {"mhz": 125, "speed": 1.0, "dormant": "dormant_pico_w_ma"},
    "Pico 2": {"mhz": 150, "speed": 0.8, "dormant": "dormant_pico2_ma"},
}
CELLS = {"3xAAA": ("aaa_mah", "aaa_mean_v", 3), "lipo": ("lipo_mah", "lipo_mean_v", 1)}


def value(name, worst):
    """An input at its worse end for the cells (worst=True) or its better one."""
    low, high, worse, _ = INPUTS[name]
    return (high if worse == "high" else low) if worst else (low if worse == "high" else high)


def lit_fraction(names=PLAY_FRAMES):
    """Share of lit pixels over the play screens' real frames (1024-byte SSD1306 pages)."""
    counts = []
    for n in names:
        frame = bytes.fromhex((GOLDEN / n).read_text().strip())
        counts.append(sum(bin(b).count("1") for b in frame) / (8 * len(frame)))
    return statistics.mean(counts)


def busy_fractions(play, loop_ms=None, pace_ms=3000, irq_us=0.0):
    """(play, idle) busy shares from bench_pico's play() result: the mean idle pass over all
    screens, once per loop period (LOOP_MS; back to back if longer), the sampling Timer's
    IRQ (`irq_us` every SAMPLE_MS) and each action's median pass once per `pace_ms`."""
    loop_ms = LOOP_MS if loop_ms is None else loop_ms
    idle = [v for v in play["idle"].values() if v.get("passes")]
    act_ms = [a["ms_median"] for a in play["actions"].values() if a.get("ms_median")]
    if not idle or not act_ms:
        raise ValueError("the bench's game has no idle or action passes")
    passes = sum(v["passes"] for v in idle)
    per_pass = sum(v["ms_mean"] * v["passes"] for v in idle) / passes
    busy_idle = per_pass / max(per_pass, loop_ms) + irq_us / 1000 / SAMPLE_MS
    return min(1.0, busy_idle + statistics.mean(act_ms) / pace_ms), busy_idle


def rail_ma(busy, board, lit, worst):
    """Current on the 3.3 V rail while playing: the chip and the OLED module."""
    mhz = board["mhz"]
    chip = (value("chip_static_ma", worst) + mhz * value("chip_wfe_ma_per_mhz", worst)
            + busy * board["speed"] * mhz * value("chip_busy_ma_per_mhz", worst))
    oled = value("oled_base_ma", worst) + lit * value("oled_full_ma", worst)
    return chip + oled


def play_hours(rail, cells, worst):
    """The cells' energy to their end, less the diode's drop, through the regulator."""
    mah, mean_v, n = CELLS[cells]
    volts = n * value(mean_v, worst)
    usable_mwh = value(mah, worst) * (volts - value("diode_v", worst))
    return usable_mwh * value("regulator_eff", worst) / (rail * RAIL_V)


def asleep_ma(board, cells, worst, latch=False):
    """The cells' current asleep: DORMANT (its figure is from 5 V, the board's draw is
    nearly constant power) and the panel asleep; or, with the latch let go, its leakage."""
    if latch:
        return value("latch_off_ma", worst)
    mah, mean_v, n = CELLS[cells]
    volts = n * value(mean_v, worst)
    return value(board["dormant"], worst) * 5.0 / volts + value("oled_sleep_ma", worst)


def estimate(play, board_name, cells, lit=None):
    """{"play_hours": (worst, best), "standby_days": ..., "off_days": ..., and the draws}
    for one board on one power option, from a bench play() result."""
    lit = lit_fraction() if lit is None else lit
    board = BOARDS[board_name]
    out = {"lit": round(lit, 3), "mah": value(CELLS[cells][0], False)}
    for key in ("play_ma", "play_hours", "asleep_ma", "standby_days", "off_ma", "off_days",
                "busy_play"):
        out[key] = []
    for worst in (True, False):
        busy, _ = busy_fractions(play, pace_ms=value("pace_ms", worst),
                                 irq_us=value("sampler_irq_us", worst))
        rail = rail_ma(busy, board, lit, worst)
        mah = value(CELLS[cells][0], worst)
        sleep_ma, off_ma = asleep_ma(board, cells, worst), asleep_ma(board, cells, worst, True)
        out["busy_play"].append(round(busy, 3))
        out["play_ma"].append(round(rail, 2))
        out["play_hours"].append(round(play_hours(rail, cells, worst), 1))
        out["asleep_ma"].append(round(sleep_ma, 3))
        out["standby_days"].append(round(mah / sleep_ma / 24, 1))
        out["off_ma"].append(off_ma)
        out["off_days"].append(round(mah / off_ma / 24))
    return {k: tuple(v) if isinstance(v, list) else v for k, v in out.items()}


def report(bench, fw="1.28.0"):
    """The estimate for every board and power option, from a bench_pico report."""
    play = (bench.get(fw) or {}).get("play")
    if not play or "idle" not in play or "actions" not in play:
        return {}, ["power model: no 1-player game in the bench for v%s" % fw]
    try:
        _, busy_idle = busy_fractions(play)
    except ValueError as e:
        return {}, ["power model: %s" % e]
    out, lines = {}, ["", "power model (v%s; every input and its source: tools/emu/power_model.py)"
                      % fw, "  CPU busy between presses %.1f%% (mean idle pass, every %d ms)"
                      % (100 * busy_idle, LOOP_MS)]
    for cells in CELLS:
        for board in BOARDS:
            e = estimate(play, board, cells)
            out["%s, %s" % (board, cells)] = e
            lines.append("  %-6s %-7s play %.0f-%.0f h (%.1f-%.1f mA on 3.3 V); asleep"
                         " %.2f-%.2f mA -> %.0f-%.0f days; latch off: the cells' shelf life"
                         % (board, cells, *e["play_hours"], *reversed(e["play_ma"]),
                            *reversed(e["asleep_ma"]), *e["standby_days"]))
    return out, lines


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bench", default=str(BENCH))
    args = ap.parse_args(argv)
    path = Path(args.bench)
    if not path.exists():
        print("power model: no %s: run `make bench-pico` first" % path)
        return 1
    _, lines = report(json.loads(path.read_text()))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
