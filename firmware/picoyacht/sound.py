"""Sound: short tone sequences on a passive piezo, played without ever blocking the loop.

Each sound is a bytes literal of (note, length) pairs: note is a MIDI number (0 = a rest),
length counts UNIT_MS. A Player walks one table, advanced by tick(now_ms) from the main
loop, and drives an injected tone output
    tone(freq_hz, duty_u16)    freq_hz 0 (and duty 0) = silence
(board_pico: machine.PWM; the simulator records the calls). Nothing here touches machine,
and play()/tick() allocate nothing, so the same code runs on CPython and MicroPython.

A sound that starts while another plays replaces it if it matters at least as much
(PRIORITY); otherwise it waits for the current one to end (one waiting slot), except a
click, which is simply dropped. So a Yatzy on the last box plays its fanfare, then the
game-over tune. Volume is a duty cycle: a passive piezo is loudest at 50 %.
"""

from array import array

from micropython import const

from picoyacht.cues import NSOUNDS, VOLUME_DEFAULT  # the sounds' ids live in cues
from picoyacht.ticks import ticks_add, ticks_diff

UNIT_MS = const(5)  # a length of 1 in a table
LOW_NOTE = const(48)  # C3: the lowest note in FREQ

VOLUME_DUTY = (0, 1311, 6554, 32768)  # duty_u16: 0, 2 %, 10 %, 50 %

# C7..B7 in Hz (equal temperament, A4 = 440); other octaves halve or double these.
_TOP_OCTAVE = (2093, 2217, 2349, 2489, 2637, 2794, 2960, 3136, 3322, 3520, 3729, 3951)


def _freqs():
    """Hz for MIDI LOW_NOTE..108 (C3..C8), rounded, built once."""
    out = array("H", bytes(2 * (109 - LOW_NOTE)))
    for m in range(LOW_NOTE, 109):
        f = _TOP_OCTAVE[m % 12]
        shift = m // 12 - 8  # MIDI 96..107 is the top octave's row
        if shift >= 0:
            f <<= shift
        else:
            f = (f + (1 << (-shift - 1))) >> -shift
        out[m - LOW_NOTE] = f
    return out


FREQ = _freqs()


# Each sound: (note, length) byte pairs, written out as literals so that nothing is built
# at import; each comment gives the pairs in decimal (MIDI 60 = C4, 72 = C5, 84 = C6).
SOUNDS = (
    b"\x60\x02",  # SOUND_HOLD: (96, 2): 10 ms at C7
    # SOUND_ROLL, a rattle: 10 ms clacks at scattered pitches with uneven gaps, like dice in a cup:
    # (86, 2) (0, 4) (79, 2) (0, 6) (91, 2) (0, 3) (82, 2) (0, 7) (89, 2)
    # (0, 4) (77, 2) (0, 8) (87, 2) (0, 5) (80, 2) (0, 9) (84, 2)
    b"\x56\x02\x00\x04\x4f\x02\x00\x06\x5b\x02\x00\x03\x52\x02\x00\x07\x59\x02"
    b"\x00\x04\x4d\x02\x00\x08\x57\x02\x00\x05\x50\x02\x00\x09\x54\x02",
    b"\x54\x10\x58\x18",  # SOUND_SCORE: (84, 16) (88, 24): C6, E6 (a rising third)
    b"\x43\x10\x3c\x20",  # SOUND_SCRATCH: (67, 16) (60, 32): G4 down to C4
    # SOUND_YAHTZEE: (79, 20) (84, 20) (88, 20) (91, 40) (0, 8) (88, 20) (91, 80)
    b"\x4f\x14\x54\x14\x58\x14\x5b\x28\x00\x08\x58\x14\x5b\x50",
    # SOUND_GAME_OVER: (91, 30) (88, 30) (84, 30) (79, 30) (84, 90)
    b"\x5b\x1e\x58\x1e\x54\x1e\x4f\x1e\x54\x5a",
)
PRIORITY = b"\x00\x01\x02\x02\x04\x03"  # per sound: 0 (a click) is dropped, not queued


def duration_ms(sound):
    """How long a sound lasts when nothing delays the loop."""
    t = SOUNDS[sound]
    ms = 0
    for i in range(1, len(t), 2):
        ms += t[i] * UNIT_MS
    return ms


class Player:
    """Plays SOUNDS through tone(freq_hz, duty_u16); tick(now_ms) on every loop pass."""

    def __init__(self, tone, volume=VOLUME_DEFAULT):
        self._tone = tone
        self.volume = volume
        self._cur = -1  # sound playing, -1 for none
        self._next = -1  # sound waiting for the current one to end
        self._pos = 0  # byte index of the note sounding (or to start)
        self._until = 0  # when the note sounding ends
        self._started = False  # the first note has been sent

    @property
    def playing(self):
        return self._cur >= 0

    def set_volume(self, level):
        """0 (mute) .. len(VOLUME_DUTY) - 1; muting stops what plays."""
        if not 0 <= level < len(VOLUME_DUTY):
            level = VOLUME_DEFAULT
        self.volume = level
        if level == 0:
            self.stop()

    def play(self, sound):
        """Start a sound on the next tick(); never blocks, never allocates."""
        if self.volume == 0 or not 0 <= sound < NSOUNDS:
            return
        cur = self._cur
        if cur < 0 or PRIORITY[sound] >= PRIORITY[cur]:
            self._cur = sound
            self._pos = 0
            self._started = False
        elif PRIORITY[sound] > 0:
            self._next = sound

    def stop(self):
        if self._cur >= 0:
            self._tone(0, 0)
        self._cur = -1
        self._next = -1

    def tick(self, now_ms):
        """Send the next note when the one sounding is over."""
        if self._cur < 0:
            return
        if self._started:
            if ticks_diff(now_ms, self._until) < 0:  # not yet
                return
            self._pos += 2
        self._started = True
        table = SOUNDS[self._cur]
        pos = self._pos
        if pos >= len(table):
            nxt = self._next
            self._next = -1
            if nxt >= 0:
                self._cur = nxt
                self._pos = pos = 0
                table = SOUNDS[nxt]
            else:
                self._cur = -1
                self._tone(0, 0)
                return
        note = table[pos]
        if note:
            self._tone(FREQ[note - LOW_NOTE], VOLUME_DUTY[self.volume])
        else:
            self._tone(0, 0)
        ms = table[pos + 1] * UNIT_MS
        self._until = ticks_add(now_ms, ms)
