"""Button debouncer: raw bitmask samples in, press/release/long/repeat events out.

Pure logic with an injected clock (like peterhinch's Pushbutton, but polled and
without its 50 ms blind spot), so host tests can drive it with synthetic traces.

Rule ("confirm, then lock out"), per button:
  * An edge is accepted when the raw level differs from the debounced level on
    two consecutive samples at least CONFIRM_MS apart. A one-sample glitch
    never does that, so it never makes an event.
  * After an accepted edge the button is locked for DEBOUNCE_MS: raw changes are
    watched but cannot produce the opposite edge. A contact bounce lasts at most
    10 ms from its first movement, and that movement came before the accepted
    edge, so the bounce is over before the lock ends: no double count.
  * No "stable for N ms" wait: a 20 ms tap whose two edges each bounce for 10 ms
    is left with only 10 ms of clean contact, and at a 5 ms sample period that
    is just two samples. Two agreeing samples are exactly what the rule asks, so
    the tap is caught (a 10 ms-stable rule would miss it).

Latency bound, sample period P (1..5 ms, may jitter), CONFIRM_MS = 1: if the raw
level settles at time s, its event is queued before max(s + 2P, t_prev +
DEBOUNCE_MS + P), where t_prev is this button's previous event. For a press
after a quiet spell that is less than 2P: one period until a sample sees the
press plus one confirming sample (2 ms at P = 1, 10 ms at P = 5).

LONG fires once, LONG_MS after PRESS (buttons in long_mask); REPEAT fires
REPEAT_DELAY_MS after PRESS and then every REPEAT_MS on a fixed schedule
(buttons in repeat_mask, e.g. Up/Down). Times come from ticks_ms() and are
compared only through ticks_diff(), so the 2**30 wrap of the Pico's tick counter
is harmless. Nothing is allocated per sample or per event: state lives in ints,
preallocated lists and a bytearray ring.

An event is one small int, kind << 4 | button: the kind (PRESS...) in the high nibble,
the button in the low one (event, kind_of, button_of).
"""

from micropython import const

from picoyacht.ticks import TICKS_PERIOD, wrap_add, wrap_diff

PRESS = const(1)
RELEASE = const(2)
LONG = const(3)
REPEAT = const(4)
EMPTY = const(-1)  # get() when no event is queued


def event(kind, button):
    """An event as one small int: kind in the high nibble, button in the low."""
    return (kind << 4) | button


def kind_of(ev):
    return ev >> 4


def button_of(ev):
    return ev & 15


class Debouncer:
    """Debounce up to 16 buttons given as a bitmask (bit i set = button i down)."""

    CONFIRM_MS = 1  # >= 1: two samples must agree; larger rejects longer glitches at 1 ms
    DEBOUNCE_MS = 10  # lockout after each edge; at least the worst contact bounce
    LONG_MS = 600
    REPEAT_DELAY_MS = 400
    REPEAT_MS = 120
    QUEUE_LEN = 32  # power of two

    def __init__(self, nbuttons, repeat_mask=0, long_mask=None, period=TICKS_PERIOD):
        if not 0 < nbuttons <= 16:
            raise ValueError("nbuttons")
        self.n = nbuttons
        self.all = (1 << nbuttons) - 1
        self.repeat_mask = repeat_mask & self.all
        if long_mask is None:
            long_mask = self.all & ~self.repeat_mask  # repeating keys don't also go LONG
        self.long_mask = long_mask & self.all
        self.mask = period - 1  # once here: the period itself may be a long int
        self.pressed = 0  # debounced state, one bit per button
        self.dropped = 0  # events lost to a full queue
        self._run = 0  # raw differs from `pressed` since _t_run[i]
        self._lock = 0  # edge accepted at _t_edge[i], lockout not yet over
        self._long = 0  # LONG still to report for this press
        self._t_run = [0] * nbuttons
        self._t_edge = [0] * nbuttons
        self._t_rep = [0] * nbuttons
        self._q = bytearray(self.QUEUE_LEN)
        self._qmask = self.QUEUE_LEN - 1
        self._head = 0
        self._count = 0

    def _push(self, ev):
        if self._count > self._qmask:
            self.dropped += 1
            return
        self._q[(self._head + self._count) & self._qmask] = ev
        self._count += 1

    def get(self):
        """The oldest queued event, or EMPTY (-1)."""
        if not self._count:
            return EMPTY
        ev = self._q[self._head]
        self._head = (self._head + 1) & self._qmask
        self._count -= 1
        return ev

    def pending(self):
        return self._count

    def _busy(self, raw):
        """The buttons a sample raw (already & all) concerns: it differs from the
        debounced state, or the button is settling, locked out, or watched for a long
        press or a repeat. update() looks at these only."""
        state = self.pressed
        return (raw ^ state) | self._run | self._lock | (state & (self._long | self.repeat_mask))

    def quiet(self, raw):
        """True when update(raw, now) would change nothing, at any `now`. Lets a caller
        with many samples skip the idle ones cheaply."""
        return not self._busy(raw & self.all)

    def update(self, raw, now):
        """Feed one sample: `raw` bitmask (1 = down) taken at tick `now` (ms)."""
        raw &= self.all
        busy = self._busy(raw)
        if not busy:
            return
        state = self.pressed
        run = self._run
        lock = self._lock
        lng = self._long
        rep = self.repeat_mask
        mask = self.mask
        t_run = self._t_run
        t_edge = self._t_edge
        i = 0
        bit = 1
        while busy:
            if busy & bit:
                busy ^= bit
                if lock & bit and wrap_diff(now, t_edge[i], mask) >= self.DEBOUNCE_MS:
                    lock ^= bit
                if (raw ^ state) & bit:
                    if not run & bit:
                        run |= bit
                        t_run[i] = now
                    elif not lock & bit and wrap_diff(now, t_run[i], mask) >= self.CONFIRM_MS:
                        run ^= bit
                        state ^= bit
                        lock |= bit
                        t_edge[i] = now
                        if state & bit:
                            self._push((PRESS << 4) | i)
                            lng |= self.long_mask & bit
                            self._t_rep[i] = wrap_add(now, self.REPEAT_DELAY_MS, mask)
                        else:
                            self._push((RELEASE << 4) | i)
                            lng &= ~bit
                else:
                    run &= ~bit
                if state & bit:
                    if lng & bit and wrap_diff(now, t_edge[i], mask) >= self.LONG_MS:
                        lng ^= bit
                        self._push((LONG << 4) | i)
                    if rep & bit and wrap_diff(now, self._t_rep[i], mask) >= 0:
                        self._push((REPEAT << 4) | i)
                        nxt = wrap_add(self._t_rep[i], self.REPEAT_MS, mask)
                        if wrap_diff(now, nxt, mask) >= 0:  # fell behind: no burst
                            nxt = wrap_add(now, self.REPEAT_MS, mask)
                        self._t_rep[i] = nxt
            bit <<= 1
            i += 1
        self.pressed = state
        self._run = run
        self._lock = lock
        self._long = lng
