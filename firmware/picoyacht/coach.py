"""CPU seats and the coach: pacing, the strategy engine, Expert's table, hints and tips.

picoyacht.strategy is big, so it is imported on first need; where it is missing or runs out
of heap, picoyacht.policy's fallback plays on. Nothing here draws or reads a button.
"""

from picoyacht import gamelog
from picoyacht.debounce import ticks_diff
from picoyacht.game import POINTS, ZERO, RuleError
from picoyacht.policy import A_HOLD, A_ROLL, A_SCORE, best_box, can_roll, fallback

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


CPU_HANDOVER_MS = const(1200)  # a CPU's hand-over screen stays this long
_CPU_STEP_MS = const(600)  # between a CPU's visible steps
_TIP_CENTI = const(50)  # the coach speaks up from half a point given away


def centi(v):
    """Centi-points as "12.3" (integers only)."""
    return str(v // 100) + "." + str(v // 10 % 10)


class Coach:
    """One game's CPU seats and coach. level: 0 off, 1 hints, 2 hints and tips (every
    move judged with strategy.Proficiency, CPU seats' too)."""

    def __init__(self, log):
        self.log = log
        self.level = 0
        self.at = 0  # when the CPU last stepped (or was told to wait)
        self.prof = None  # strategy.Proficiency once the first move is judged
        self._st = None  # picoyacht.strategy, or False when missing or broken
        self._tbl = None  # Expert's table for this game, or False
        self._plan_roll = False
        self._rng = None

    def start(self, game, level):
        from picoyacht.roller import Roller

        self.level = level
        self.prof = None
        self._tbl = None
        self._plan_roll = False
        self._rng = Roller(game.seed ^ 0x2545F49)

    # ---------------------------------------------------------------- pacing
    def wait(self, now):
        self.at = now

    def due(self, now):
        """True once per CPU step interval."""
        if ticks_diff(now, self.at) >= _CPU_STEP_MS:
            self.at = now
            return True
        return False

    # ---------------------------------------------------------------- engine
    def _strat(self):
        if self._st is None:
            try:
                from picoyacht import strategy

                self._st = strategy
            except (ImportError, MemoryError):
                self._st = False
        return self._st or None

    def _table(self, game):
        if self._tbl is None:
            self._tbl = False
            try:
                from picoyacht import strategy_table

                self._tbl = strategy_table.load(game) or False
            except Exception:
                pass
        return self._tbl or None

    def _action(self, game, level):
        """strategy.cpu_step's (HOLD mask | SCORE box) as visible steps: set the holds,
        then roll on the next step; the fallback policy if strategy is missing."""
        if self._plan_roll:
            self._plan_roll = False
            return A_ROLL, 0
        st = self._strat()
        if st is None:
            return fallback(game, level)
        try:
            kind, arg = st.cpu_step(game, level, self._table(game), self._rng)
        except Exception as e:  # MemoryError on a small heap: play on, simply
            self.log('{"ev":"cpu_error","msg":' + gamelog.q(repr(e)[:40]) + "}")
            self._st = False  # don't retry every step: fall back for this session
            return fallback(game, level)
        if kind == st.SCORE:
            return A_SCORE, arg
        if game.rolls_used and game.held != arg:
            self._plan_roll = True
            return A_HOLD, arg
        return A_ROLL, 0

    def step(self, game):
        """The current CPU seat's next visible step, made legal: (A_HOLD, mask) with the
        holds already set, (A_ROLL, 0) for the caller to roll, or (A_SCORE, box)."""
        kind, arg = self._action(game, game.kinds[game.current])
        if kind == A_HOLD:
            try:
                game.set_held(arg)
                return kind, arg
            except RuleError:
                kind = A_SCORE
                arg = best_box(game)
        if kind == A_ROLL:
            if can_roll(game):
                return kind, 0
            arg = best_box(game)
        if arg < 0 or game.box_state(arg) not in (POINTS, ZERO):
            arg = best_box(game)
        if arg < 0:  # no roll yet: the policy returned nonsense
            return A_ROLL, 0
        return A_SCORE, arg

    def advise(self, game):
        """(A_HOLD mask | A_SCORE box | A_ROLL, arg, expected final total in centi-points
        or -1) for the Hint."""
        st = self._strat()
        if st is not None:
            try:
                kind, arg, value = st.advise(game, st.EXPERT, self._table(game))
                return (A_SCORE if kind == st.SCORE else A_HOLD), arg, value
            except Exception:
                pass
        kind, arg = fallback(game, 2)
        return kind, arg, -1

    # ---------------------------------------------------------------- judging moves
    def cost(self, game, kind, arg):
        """Centi-points this action (A_HOLD mask before a roll, A_SCORE box) gives away,
        recorded for the game-over summary; 0 unless tips are on and strategy is there."""
        if self.level < 2:
            return 0
        st = self._strat()
        if st is None:
            return 0
        if self.prof is None:
            self.prof = st.Proficiency(game.nseats)
        try:
            return self.prof.record(game, st.SCORE if kind == A_SCORE else st.HOLD, arg,
                                    self._table(game))
        except Exception:
            return 0

    def tip(self, game, box):
        """Tips: what scoring this box gives away, or ""."""
        c = self.cost(game, A_SCORE, box)
        return "Coach: gave away " + centi(c) if c >= _TIP_CENTI else ""

    def given(self, seat):
        """Centi-points a seat gave away so far."""
        return self.prof.totals[seat] if self.prof is not None else 0

    def worst(self):
        """The game's costliest move as (centi-points, seat, round from 1, box or -1 for a
        hold), or None."""
        w = self.prof.worst if self.prof is not None else None
        if w is None:
            return None
        return w[0], w[1], w[2] + 1, w[4] if w[3] == self._st.SCORE else -1

    def hold_tip(self, game):
        """Tips, before a roll: what the holds give away, or ""."""
        c = self.cost(game, A_HOLD, game.held if game.rolls_used else 0)
        return "Coach: hold gave " + centi(c) if c >= _TIP_CENTI else ""
