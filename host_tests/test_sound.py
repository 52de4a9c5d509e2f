"""Sound: the tone tables, the non-blocking player, the Pico's PWM output and the simulator's
WAV. The same script (mp/sound_check.py) runs on CPython and the MicroPython unix port."""

import importlib
import math
import sys
import types
import wave
from pathlib import Path

import pytest
from sound_check import Recorder, run, timeline

import picoyacht
from picoyacht import cues, sound

MP_SCRIPT = Path(__file__).resolve().parent / "mp" / "sound_check.py"
PIEZO_HZ = (150, 5000)  # what a small passive piezo can sound at all


def notes(snd):
    t = sound.SOUNDS[snd]
    return [(t[i], t[i + 1]) for i in range(0, len(t), 2)]


def expected_timeline(snd, volume=cues.VOLUME_DEFAULT, start=0):
    """What the table says: each note at the sum of the lengths before it, then silence."""
    out = []
    t = start
    for note, units in notes(snd):
        hz = round(440 * 2 ** ((note - 69) / 12)) if note else 0
        out.append((t, hz, sound.VOLUME_DUTY[volume] if note else 0))
        t += units * sound.UNIT_MS
    out.append((t, 0, 0))
    return out


def close(got, want):
    """Same times and duties; pitches within 0.2 % (integer Hz halved from the top octave)."""
    assert len(got) == len(want)
    for (t, hz, duty), (wt, whz, wduty) in zip(got, want, strict=True):
        assert (t, duty) == (wt, wduty)
        assert abs(hz - whz) <= max(1, whz * 0.002), (hz, whz)


def test_frequency_table_is_equal_temperament():
    for midi in range(sound.LOW_NOTE, 109):
        want = 440 * 2 ** ((midi - 69) / 12)
        assert abs(sound.FREQ[midi - sound.LOW_NOTE] - want) <= max(1, want * 0.002), midi
    assert sound.FREQ[69 - sound.LOW_NOTE] == 440


@pytest.mark.parametrize("snd", range(cues.NSOUNDS))
def test_player_plays_each_table_on_time_and_ends_silent(snd):
    close(timeline(snd), expected_timeline(snd))
    assert timeline(snd)[-1][1:] == (0, 0)


@pytest.mark.parametrize("snd", range(cues.NSOUNDS))
def test_tones_are_in_a_piezos_range(snd):
    for note, units in notes(snd):
        assert units > 0
        if note:
            hz = sound.FREQ[note - sound.LOW_NOTE]
            assert PIEZO_HZ[0] <= hz <= PIEZO_HZ[1], (snd, note)


def pitches(snd):
    return [n for n, _ in notes(snd) if n]


def test_each_sound_fits_its_moment():
    d = sound.duration_ms
    assert d(cues.SOUND_HOLD) <= 20  # a click: over before the next press
    # the rattle lasts about as long as the dice tumble on screen (280 ms) and is made of
    # short clacks, none longer than 15 ms, at more than one pitch
    assert 200 <= d(cues.SOUND_ROLL) <= 450
    assert all(u * sound.UNIT_MS <= 15 for n, u in notes(cues.SOUND_ROLL) if n)
    assert len(set(pitches(cues.SOUND_ROLL))) >= 5
    assert pitches(cues.SOUND_SCORE) == sorted(pitches(cues.SOUND_SCORE))  # points: rising
    scratch = pitches(cues.SOUND_SCRATCH)
    assert scratch == sorted(scratch, reverse=True)  # 0: falling
    fanfare = pitches(cues.SOUND_YAHTZEE)
    assert fanfare[-1] == max(fanfare) and len(fanfare) >= 5
    others = (cues.SOUND_SCORE, cues.SOUND_SCRATCH, cues.SOUND_ROLL)
    assert d(cues.SOUND_YAHTZEE) > max(d(snd) for snd in others)
    assert d(cues.SOUND_GAME_OVER) <= 2000 and d(cues.SOUND_YAHTZEE) <= 2000
    assert len(set(sound.SOUNDS)) == cues.NSOUNDS  # every moment sounds different


@pytest.mark.parametrize("volume", range(len(sound.VOLUME_DUTY)))
def test_volume_sets_the_duty_and_off_is_silent(volume):
    got = timeline(cues.SOUND_SCORE, volume=volume)
    if volume == 0:
        assert got == []
    else:
        close(got, expected_timeline(cues.SOUND_SCORE, volume))
    assert sound.VOLUME_DUTY[-1] == 32768  # loudest: a 50 % square wave
    assert list(sound.VOLUME_DUTY) == sorted(set(sound.VOLUME_DUTY))
    assert len(cues.VOLUME_NAMES) == len(sound.VOLUME_DUTY)


def test_muting_mid_sound_silences_at_once():
    rec = Recorder()
    p = sound.Player(rec.tone, 3)
    p.play(cues.SOUND_YAHTZEE)
    run(p, rec, 0, until_quiet=False, limit=150)
    p.set_volume(0)
    assert rec.calls()[-1][1:] == (0, 0) and not p.playing
    n = rec.n
    p.play(cues.SOUND_ROLL)
    run(p, rec, 200, until_quiet=False, limit=500)
    assert rec.n == n


def test_priorities_queue_and_drop():
    rec = Recorder()
    p = sound.Player(rec.tone)
    p.play(cues.SOUND_YAHTZEE)  # a Yatzy on the last box: the fanfare, then the game-over tune
    p.play(cues.SOUND_GAME_OVER)
    p.play(cues.SOUND_HOLD)  # a click during a fanfare is dropped
    run(p, rec, 0)
    want = expected_timeline(cues.SOUND_YAHTZEE)[:-1]
    want += expected_timeline(cues.SOUND_GAME_OVER, start=sound.duration_ms(cues.SOUND_YAHTZEE))
    close(rec.calls(), want)
    # a score during the rattle replaces it at once
    rec = Recorder()
    p = sound.Player(rec.tone)
    p.play(cues.SOUND_ROLL)
    run(p, rec, 0, until_quiet=False, limit=50)
    p.play(cues.SOUND_SCORE)
    run(p, rec, 50)
    close(rec.calls()[-3:], expected_timeline(cues.SOUND_SCORE, start=50))


def test_tick_is_one_call_and_survives_the_tick_wrap():
    start = (1 << 30) - 37  # rp2's ticks_ms wraps at 2**30 mid-fanfare
    close(timeline(cues.SOUND_YAHTZEE, start=start), expected_timeline(cues.SOUND_YAHTZEE))
    rec = Recorder()
    p = sound.Player(rec.tone)
    p.play(cues.SOUND_ROLL)
    for t in range(1000):  # never more than one tone call per tick: nothing waits
        n = rec.n
        rec.now = t
        p.tick(t)
        assert rec.n - n <= 1


def test_a_stalled_loop_stretches_a_note_and_skips_none():
    rec = Recorder()
    p = sound.Player(rec.tone)
    p.play(cues.SOUND_SCORE)
    for t in (0, 500, 501, 1000):  # a 500 ms step (a CPU move, a save) between ticks
        rec.now = t
        p.tick(t)
    assert [c[1] for c in rec.calls()] == [c[1] for c in expected_timeline(cues.SOUND_SCORE)]


def test_bad_sound_or_volume_is_ignored():
    rec = Recorder()
    p = sound.Player(rec.tone)
    p.play(cues.NSOUNDS)
    p.play(-1)
    run(p, rec, 0)
    assert rec.n == 0
    p.set_volume(99)
    assert p.volume == cues.VOLUME_DEFAULT


def test_micropython_plays_the_same_and_allocates_nothing(mp_run):
    r = mp_run(MP_SCRIPT)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.split("\n")
    for snd in range(cues.NSOUNDS):
        want = "SOUND %d %s" % (snd, " ".join("%d:%d:%d" % c for c in timeline(snd)))
        assert lines[snd] == want
    assert "ALLOC 0" in lines, r.stdout[-500:]


def test_allocation_check_can_fail(mp_run):
    """The ALLOC figure sees a player that allocates."""
    script = ("import sound_check\nfrom picoyacht import sound\n"
              "class Leaky(sound.Player):\n"
              "    def tick(self, now):\n"
              "        if now & 1023 == 0:\n            self.junk = [now]\n"
              "        super().tick(now)\n"
              "rec = sound_check.Recorder()\n"
              "print('ALLOC', sound_check.alloc_bytes(rec, Leaky(rec.tone), 2))\n")
    r = mp_run(script)
    assert r.returncode == 0, r.stderr
    assert int(r.stdout.split()[-1]) > 0


class FakePWM:
    def __init__(self, pin):
        self.pin = pin
        self.calls = []

    def freq(self, hz):
        self.calls.append(("freq", hz))

    def duty_u16(self, d):
        self.calls.append(("duty", d))

    def deinit(self):
        self.calls.append(("deinit",))


@pytest.fixture
def pico_board(monkeypatch):
    machine = types.ModuleType("machine")
    machine.Pin = lambda gpio, *a, **k: ("pin", gpio)
    machine.Pin.IN = machine.Pin.OUT = machine.Pin.PULL_UP = 0
    machine.PWM = FakePWM
    monkeypatch.setitem(sys.modules, "machine", machine)
    # a fresh board_pico bound to this machine, even if another test imported it already
    monkeypatch.delitem(sys.modules, "picoyacht.board_pico", raising=False)
    if hasattr(picoyacht, "board_pico"):
        monkeypatch.delattr(picoyacht, "board_pico")
    board_pico = importlib.import_module("picoyacht.board_pico")

    def make(piezo):
        b = board_pico.PicoBoard.__new__(board_pico.PicoBoard)
        b.cfg = types.SimpleNamespace(PIEZO=piezo)
        b.piezo = b._piezo()
        b.tone = b._tone if b.piezo is not None else None
        return b

    return make


def test_pico_drives_the_piezo_by_pwm(pico_board):
    assert pico_board(None).piezo is None  # not fitted: no tone output, the app stays quiet
    b = pico_board(17)
    assert b.piezo.pin == ("pin", 17) and b.piezo.calls == [("duty", 0)]  # silent at boot
    p = sound.Player(b.tone)
    p.play(cues.SOUND_SCORE)
    for t in range(0, 300):
        p.tick(t)
    assert b.piezo.calls[1:] == [("freq", 1047), ("duty", 6554), ("freq", 1319),
                                 ("duty", 6554), ("duty", 0)]


def test_simulator_records_tones_and_writes_a_wav(tmp_path):
    import board_sim
    import sim

    board = board_sim.HeadlessBoard()
    board.tone(440, 100)  # no ToneLog attached: nothing kept
    board.tones = board_sim.ToneLog()
    p = sound.Player(board.tone, 3)
    p.play(cues.SOUND_SCORE)
    while True:
        p.tick(board.ticks_ms())
        if not p.playing:
            break
        board.idle()
    log = sim.parse_tones(board.tones.text())
    assert [hz for _, hz, _ in log] == [1047, 1319, 0]
    out = tmp_path / "t.wav"
    sim.write_wav(log, out)
    with wave.open(str(out)) as w:
        rate = w.getframerate()
        data = w.readframes(w.getnframes())
    assert len(data) == rate * sound.duration_ms(cues.SOUND_SCORE) // 1000
    for (t0, hz, _), (t1, _, _) in zip(log, log[1:], strict=False):  # each pitch, by its edges
        part = data[rate * (t0 - log[0][0]) // 1000: rate * (t1 - log[0][0]) // 1000]
        rises = sum(1 for a, b in zip(part, part[1:], strict=False) if a < 128 <= b)
        assert math.isclose(rises / (len(part) / rate), hz, rel_tol=0.02)


def test_tone_log_spills_or_counts_when_full():
    import board_sim

    tl = board_sim.ToneLog(4)
    for i in range(6):
        tl.add(i, 440, 1)
    assert tl.n == 4 and tl.dropped == 2
    spilled = []
    tl = board_sim.ToneLog(4)
    tl.spill = lambda t: spilled.append(t.text())
    for i in range(6):
        tl.add(i, 440, 1)
    assert len(spilled) == 1 and spilled[0].count("\n") == 4 and tl.n == 2
