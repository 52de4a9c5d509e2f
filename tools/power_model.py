"""How long the cells last: a power model from the emulated Pico's busy time and part currents.

    hours of play   = battery mAh / battery current while playing
    days of standby = battery mAh / battery current asleep / 24
    days off        = the same with the soft-power latch (hardware/BOM.md) let go

The CPU's busy fraction comes from `make bench-pico`'s 1-player game on the emulated Pico
(tools/bench_pico.py play()): an idle pass (nothing pressed) repeats every SAMPLE_MS, an
action's pass comes once per PACE_MS of a player's thinking. The display's current scales
with its lit pixels, counted in the real frames of host_tests/golden. Currents on the 3.3 V
rail go through the Pico's buck-boost regulator to the battery.

The currents are the model's inputs, named with their source below; where no datasheet
gives a figure it says "assumed". A USB meter on the real handheld replaces every one of
them (README: "Print a case"). Run alone for the estimate with the last bench figures:

    python tools/power_model.py [--bench build/bench_pico.json]
"""

import argparse
import json
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "host_tests" / "golden"
BENCH = ROOT / "build" / "bench_pico.json"

SAMPLE_MS = 2  # config.SAMPLE_MS: the loop's pass period while nothing happens
PACE_MS = 3000  # assumed: a player's action (a hold, a roll, a box) every 3 s
PLAY_FRAMES = ("play_ready.hex", "play_rolled.hex", "play_held.hex", "card_p1.hex")

# Currents (mA).
DORMANT_MA = 0.9  # Pico board in machine.lightsleep() (DORMANT), measured from USB by
#                   MicroPython's maintainers when it was added to the rp2 port (2022); the
#                   Raspberry Pi Pico Datasheet's power-consumption figures for a DORMANT
#                   board are of the same order, about a milliamp at 5 V
LATCH_OFF_MA = 0.001  # AO3401A datasheet: drain leakage (IDSS) 1 uA max, the latch let go
#                     (held on, its 100 kohm gate resistor adds a few hundredths of a mA)
CPU_BASE_MA = 4.0  # assumed: RP2040 clocks, PLLs, flash and RAM at 125 MHz, core asleep
#                    between passes (WFE)
CPU_BUSY_MA_PER_MHZ = 0.14  # assumed: the running core's extra current per MHz
SSD1306_SLEEP_MA = 0.02  # SSD1306 datasheet: sleep current, 10 uA max on each of VDD, VCC
OLED_BASE_MA = 0.5  # assumed: module logic and charge pump with the panel dark
OLED_FULL_MA = 22.0  # assumed: all 8192 pixels lit at the firmware's contrast
REGULATOR_EFF = 0.85  # RT6150B buck-boost (the Pico's regulator), light load: assumed
RAIL_V = 3.3


def lit_fraction(names=PLAY_FRAMES):
    """Share of lit pixels over the play screens' real frames (1024-byte SSD1306 pages)."""
    counts = []
    for n in names:
        frame = bytes.fromhex((GOLDEN / n).read_text().strip())
        counts.append(sum(bin(b).count("1") for b in frame) / (8 * len(frame)))
    return statistics.mean(counts)


def busy_fractions(play, sample_ms=SAMPLE_MS, pace_ms=PACE_MS):
    """(play, idle) busy fractions from bench_pico's play() result for one firmware."""
    idle_ms = [v["ms_max"] for v in play["idle"].values() if v.get("ms_max")]
    act_ms = [a["ms_median"] for a in play["actions"].values() if a.get("ms_median")]
    if not idle_ms or not act_ms:
        raise ValueError("the bench's game has no idle or action passes")
    per_pass = statistics.median(idle_ms)  # the longest idle pass, per screen: an upper bound
    idle = min(1.0, per_pass / max(per_pass, sample_ms))
    return min(1.0, idle + statistics.mean(act_ms) / pace_ms), idle


def rail_ma(busy, mhz, lit):
    """Current on the 3.3 V rail: the RP2040 and the OLED module."""
    return CPU_BASE_MA + busy * mhz * CPU_BUSY_MA_PER_MHZ + OLED_BASE_MA + lit * OLED_FULL_MA


def battery_ma(rail, volts):
    return rail * RAIL_V / (REGULATOR_EFF * volts)


def estimate(busy_play, busy_idle, battery, mhz=125, lit=None):
    """Hours of play and days asleep on `battery` (a hardware/layout.py POWER entry)."""
    lit = lit_fraction() if lit is None else lit
    volts = battery["volts"]
    play = battery_ma(rail_ma(busy_play, mhz, lit), volts)
    # asleep: the measured board figure (from 5 V USB) scaled to the battery's voltage
    asleep = DORMANT_MA * 5.0 / volts + SSD1306_SLEEP_MA
    return {"busy_play": round(busy_play, 3), "busy_idle": round(busy_idle, 3),
            "lit": round(lit, 3), "mhz": mhz, "play_ma": round(play, 2),
            "asleep_ma": round(asleep, 2), "mah": battery["mah"],
            "play_hours": round(battery["mah"] / play, 1),
            "standby_days": round(battery["mah"] / asleep / 24, 1),
            "off_ma": LATCH_OFF_MA, "off_days": round(battery["mah"] / LATCH_OFF_MA / 24)}


def report(bench, fw="1.28.0"):
    """The estimate for every power option, from a bench_pico report; lines to print."""
    import case_model

    layout = case_model.load_layout()
    play = (bench.get(fw) or {}).get("play")
    if not play or "idle" not in play or "actions" not in play:
        return {}, ["power model: no 1-player game in the bench for v%s" % fw]
    busy_play, busy_idle = busy_fractions(play)
    out, lines = {}, ["", "power model (v%s; currents: tools/power_model.py)" % fw]
    for name, battery in layout.POWER.items():
        e = estimate(busy_play, busy_idle, battery)
        out[name] = e
        lines.append("  %-6s %4d mAh: play %.1f mA -> %.0f h; asleep %.2f mA -> %.0f days;"
                     " latch off %.3f mA -> %.0f years, past the cells' shelf life"
                     " (CPU busy %.0f%% playing, %.0f%% idle; %.0f%% pixels lit)"
                     % (name, e["mah"], e["play_ma"], e["play_hours"], e["asleep_ma"],
                        e["standby_days"], e["off_ma"], e["off_days"] / 365, 100 * busy_play,
                        100 * busy_idle, 100 * e["lit"]))
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
