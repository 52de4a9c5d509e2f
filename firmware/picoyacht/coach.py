"""CPU seats and the coach: pacing, the strategy engine, Expert's table, hints and tips.

picoyacht.strategy is big, so it is imported on first need; where it is missing or runs out
of heap, picoyacht.policy's fallback plays on. Nothing here draws or reads a button.

Thinking is spread over loop passes (strategy.Thinking, _THINK_BUDGET a pass): a CPU seat's
next decision (and, with tips on, the coach's verdict on it) while its step interval runs,
and on a human's turn the hint, so no pass stalls the screen, the buttons or the watchdog.
Once a step is thought out, the heap is collected in a pass that does nothing else (the
step's split, heap.sweep): left to chance, it fell in the pass of a CPU's box and hand-over
frame.
"""

import gc
import sys

from micropython import const

from picoyacht import gamelog, heap
from picoyacht.game import HUMAN, POINTS, ZERO, RuleError
from picoyacht.policy import A_HOLD, A_ROLL, A_SCORE, best_box, can_roll, fallback
from picoyacht.rules import CPU_NORMAL, NAME
from picoyacht.ticks import ticks_diff

CPU_HANDOVER_MS = const(1200)  # a CPU's hand-over screen stays this long
_CPU_STEP_MS = const(600)  # between a CPU's visible steps
_TIP_CENTI = const(50)  # the coach speaks up from half a point given away
_THINK_BUDGET = const(12000)  # strategy COST units (roughly Pico microseconds) a pass
_RETRY_STEPS = const(8)  # after a MemoryError the engine is tried again this many steps on
_LINE = const(21)  # characters in a row of the panel
# How far the CPU's modules are in (Coach._loaded), each import in a pass of its own, in
# this order (each needs only those before it): picoyacht.dice, engine_tables, one_throw,
# engine and strategy. On the .mpy layout two of them in one pass outlast a pass. After
# them, for a game that wants it (_estimate_due), Normal's estimate: imported by the
# search's first step, its import outlasted that step.
_UNLOADED = const(0)  # nothing imported yet
_STRATEGY = const(5)  # all five: Coach._st holds strategy
_MISSING = const(6)  # a module is missing: the fallback plays on for good


def _import_cpu_module(n):
    """Imports the n-th of the CPU's modules (see _STRATEGY): each one's own imports then
    find those before it loaded. Returns strategy's module, the fifth; None for the others
    (n == _STRATEGY: Normal's estimate)."""
    if n == 0:
        from picoyacht import dice  # noqa: F401
    elif n == 1:
        from picoyacht import engine_tables  # noqa: F401
    elif n == 2:
        from picoyacht import one_throw  # noqa: F401
    elif n == 3:
        from picoyacht import engine  # noqa: F401
    elif n == 4:
        from picoyacht import strategy

        return strategy
    else:
        from picoyacht import estimate  # noqa: F401
    return None


def _table_module_in():
    """Imports Expert's table module unless it is in: False when the import was this
    pass's work (the table is read in a later one; the two together outran a pass on the
    .mpy layout). A module that will not import is left for the read to report."""
    if "picoyacht.strategy_table" in sys.modules:
        return True
    try:
        from picoyacht import strategy_table  # noqa: F401
    except (ImportError, MemoryError):
        return True
    return False


def _estimate_due(game, table):
    """Normal's estimate is not in yet and the game will search with it: a Normal seat
    plays, or no table serves the game (`table`: the one found for it, or None)."""
    if "picoyacht.estimate" in sys.modules:
        return False
    if table is None:
        return True
    for kind in game.kinds:
        if kind == CPU_NORMAL:
            return True
    return False


def position(game):
    """A small int naming the current seat's moment: turn, rolls used and the dice."""
    code = 0
    dice = game.dice
    for i in range(len(dice)):  # (no iterator: nothing allocated on an idle pass)
        code = code << 3 | dice[i]
    return ((game.turn << 2 | game.rolls_used) << 18) + code


def centi(v):
    """Centi-points as "12.3" (integers only)."""
    return str(v // 100) + "." + str(v // 10 % 10)


def move_words(game, score, arg):
    """A move as a hint or a tip names it, in a row: "Take Full house 25" (labels.take_words
    shortens a name that does not fit), "Hold 4 4 4, roll" or "Roll all"."""
    if score:
        from picoyacht.labels import take_words  # (here: labels stays out of the boot)

        return take_words(game.rs.boxes[arg][NAME], str(game.preview(arg)))
    if not arg:
        return "Roll all"
    text = "Hold"
    for i in range(len(game.dice)):
        if arg >> i & 1:
            text += " " + str(game.dice[i])
    return text + ", roll"


def avg_words(value, exact):
    """The hint's second row: the final total to expect, "Est." where it is Normal's."""
    return ("Final total avg " if exact else "Est. final avg ") + centi(value)


def tip_words(game, cost, best, exact=True):
    """The coach's two rows on a move that gave away `cost` (from half a point): the dice it
    judged and how much ("~gave" where the figure is an estimate, unless `exact`), then the
    best move (strategy's kind << 8 | arg), or "" for a good move."""
    if cost < _TIP_CENTI:
        return ""
    dice = ""  # the dice it judged: a roll or a score replaces them on the panel
    for i in range(len(game.dice)):
        dice += str(game.dice[i])
    text = dice + (" gave " if exact else " ~gave ") + centi(cost)
    for tail in (", best:", "; best", ":"):
        if len(text) + len(tail) <= _LINE:
            break
    text += tail
    return text + "\n" + move_words(game, best >> 8, best & 255)


def legal_step(game, kind, arg):
    """A CPU's step (A_HOLD mask | A_ROLL | A_SCORE box) made legal: (A_HOLD, mask) with the
    holds already set, (A_ROLL, 0) for the caller to roll, or (A_SCORE, a box it may
    fill); whatever the engine or the fallback answered."""
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


class Coach:
    """One game's CPU seats and coach. level: 0 off, 1 hints, 2 hints and tips (every
    move judged with strategy.Proficiency, CPU seats' too unless they play by the very
    estimate they would be judged with: judges())."""

    def __init__(self, log):
        self.log = log
        self.level = 0
        self.at = 0  # when the CPU last stepped (or was told to wait)
        self.prof = None  # strategy.Proficiency once the first move is judged
        self._loaded = _UNLOADED  # how many of the CPU's modules are in, or _MISSING
        self._st = None  # picoyacht.strategy once _loaded reaches _STRATEGY
        self._tbl = None  # Expert's table for this game, if one serves it
        self._tbl_sought = False  # this game's table was looked for (_table)
        self._plan_roll = False
        self._rng = None
        self._split = heap.IDLE  # SWEPT: the heap was collected for the step thought out
        self._think = None  # strategy.Thinking for the position below
        self._pos = self._mask = -1
        self._human = False  # the thinking is the hint for a human seat
        self._off = 0  # CPU steps the fallback still plays after an engine error
        self.plain = False  # the last CPU step or hint was the fallback's: the screen says so
        self._cost = None  # the coach's verdict (judge_steps) on the CPU's step, for box:
        self._cost_box = -1
        self._easy = None  # Easy's (kind, arg) for the position _easy_pos, made a pass ahead
        self._easy_pos = -1

    def start(self, game, level):
        from picoyacht.roller import Roller

        self.level, self.prof = level, None
        self._tbl, self._tbl_sought, self._plan_roll = None, False, False
        self._rng = Roller(game.seed ^ 0x2545F49)
        self._think, self._easy_pos = None, -1
        heap.collect_often(False)  # a game: the loop's sweeps collect, in passes of their own

    # ---------------------------------------------------------------- pacing
    def wait(self, now):
        self.at = now

    def due(self, now, game=None, busy=False):
        """True once per CPU step interval when a CPU seat plays and its step is thought
        out. Meanwhile (and on a human's turn, for the hint) it thinks a budget a pass,
        unless busy (the pass draws a frame); once the step is thought out, a pass of its
        own collects the heap."""
        if game is None:
            ready = True
        elif game.kinds[game.current] == HUMAN:
            if self.level and game.rolls_used and not self._loading(game, busy, True):
                if not busy:
                    self._thinking(game, True)
            return False
        elif self._loading(game, busy, game.kinds[game.current] > 1):
            return False
        else:
            ready = self._plan_roll
            if not ready and game.kinds[game.current] == 1:  # Easy: no search
                ready = self._easy_pos == position(game)
                if not ready and not busy:
                    ready = not self._decide_easy(game)
            elif not ready:
                t = self._current(game, False)
                ready = t is not None and t.done
                if not ready and not busy:
                    ready = self._thinking(game, False) is None  # done: ready next pass
        if ready and self._split != heap.SWEPT and not busy:
            self._split = heap.sweep(heap.DUE)  # the step is due: collect, in a pass of its own
            return False
        if ready and ticks_diff(now, self.at) >= _CPU_STEP_MS:
            self.at = now
            self._split = heap.IDLE
            return True
        return False

    def _current(self, game, human):
        """The Thinking for this position, boxes and seat kind, or None (it is stale)."""
        fresh = (self._pos == position(game) and self._mask == game.filled[game.current]
                 and self._human == human)
        return self._think if fresh else None

    def _thinking(self, game, human):
        """The Thinking for this moment (started anew when the position moved on), one
        budget further; None without an engine."""
        st = self._strat()
        if st is None:
            return None
        t = self._current(game, human)
        if t is None:
            self._pos, self._mask, self._human = position(game), game.filled[game.current], human
            if human:
                t = st.Thinking(st.advise_steps, game, st.EXPERT, self._table(game))
            else:
                t = st.Thinking(self._cpu_steps, st, game)
            self._think = t
        try:
            t.step(_THINK_BUDGET)
        except Exception as e:
            self._broken(e)
            return None
        return t

    def _cpu_steps(self, st, game):
        """The CPU's decision, then (tips on) the coach's verdict on a box it scores."""
        table = self._table(game)
        kind, arg = yield from st.cpu_steps(game, game.kinds[game.current], table)
        judged = None
        if kind == st.SCORE and self.level >= 2 and self.judges(game, game.current):
            judged = yield from st.judge_steps(game, kind, arg, table)
        return kind, arg, judged

    def _thought(self, game, human):
        """The finished Thinking for this moment (finished now if need be), or None."""
        t = self._thinking(game, human)
        while t is not None and not t.done:
            t = self._thinking(game, human)
        return t

    def _broken(self, e):
        """Out of heap, or a bug: the fallback plays a few steps, then the engine is tried again."""
        self.log('{"ev":"cpu_error","msg":' + gamelog.q(repr(e)[:40]) + "}")
        gamelog.trace(e)
        self._think = None
        self._off = _RETRY_STEPS

    def _fallback_step(self):
        """Counts a fallback's step after an engine error; the last collects the heap."""
        if self._off:
            self._off -= 1
            if not self._off:
                gc.collect()

    def _decide_easy(self, game):
        """Easy's move, a pass ahead of the step that shows it: with the step's score and
        hand-over frame in the same pass, that pass went over its time. False without an
        engine (the fallback then plays at once)."""
        st = self._strat()
        if st is None:
            return False
        self._easy = st.cpu_step(game, st.EASY, None, self._rng)
        self._easy_pos = position(game)
        return True

    # ---------------------------------------------------------------- engine
    def _loading(self, game, busy, table):
        """Load the CPU's modules, then (if `table`) Expert's table and, if the game wants
        it, Normal's estimate, each in a drawless pass of its own after one that collects: on
        the .mpy layout two imports outrun a pass, and one amid garbage may find no free run
        for its code or the next pool of names."""
        if self._off:
            return False
        todo = self._loaded < _STRATEGY or (table and self._loaded == _STRATEGY and (
            not self._tbl_sought or _estimate_due(game, self._tbl)))
        if todo and not busy:
            swept = self._split == heap.SWEPT
            self._split = heap.IDLE if swept else heap.sweep(heap.DUE)
            if swept and self._loaded < _STRATEGY:
                self._load()
            elif swept and self._tbl_sought:
                self._load(True)
            elif swept and _table_module_in():
                self._table(game)
        return todo

    def _load(self, estimate=False):
        """Imports the next of the CPU's modules (see _STRATEGY), or Normal's estimate. If
        one fails the fallback plays and the log says why: out of heap, the import is tried
        again later; a missing module, never."""
        n = _STRATEGY if estimate else self._loaded
        try:
            st = _import_cpu_module(n)
            if n < _STRATEGY:
                self._st, self._loaded = st, n + 1  # (_st: None until strategy's turn)
        except (ImportError, MemoryError) as e:
            self._broken(e)
            if not isinstance(e, MemoryError):
                self._loaded = _MISSING

    def _strat(self):
        while self._loaded < _STRATEGY and not self._off:
            self._load()
        return None if self._off else self._st

    def release(self, lend=False):
        """The game is over, or a save found no room: the search's arrays go (`lend`: one)."""
        self._think = None  # (a search under way holds the engine too)
        if not lend:
            heap.collect_often(True)  # the game is over: the next imports are the next one's
        if self._st is not None and not (lend and self._st.lend()):
            self._st.release()

    def _table(self, game):
        if not self._tbl_sought and not self._off:
            self._tbl_sought = True
            try:
                from picoyacht import strategy_table

                self._tbl = strategy_table.load(game)
            except MemoryError as e:  # as the engine's: the fallback, then a later try
                self._tbl_sought = False
                self._broken(e)
            except Exception:  # none for these rules, or a damaged file: the estimate
                pass
        return self._tbl

    def exact(self, game, load=True):  # a table serves the game; load=False: none known not to
        if load:
            return self._table(game) is not None
        return not self._tbl_sought or self._tbl is not None

    def _action(self, game, level):
        """strategy.cpu_step's (HOLD mask | SCORE box) as visible steps: set the holds,
        then roll on the next step; the fallback policy if strategy is missing."""
        if self._plan_roll:
            self._plan_roll = False
            return A_ROLL, 0
        self._fallback_step()
        st = self._strat()
        self.plain = st is None
        if st is None:
            return fallback(game, level)
        if level == st.EASY:  # no search: the same (seeded) mistakes as ever
            if self._easy_pos != position(game):
                self._decide_easy(game)
            kind, arg = self._easy
            self._easy_pos = -1
        else:
            t = self._thought(game, False)
            if t is None:
                self.plain = True
                return fallback(game, level)
            kind, arg, self._cost = t.result
            self._cost_box = arg
            self._think = None
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
        return legal_step(game, kind, arg)

    def advise(self, game):
        """(A_HOLD mask | A_SCORE box | A_ROLL, arg, expected final total in centi-points
        or -1, the same "avg" at every level: final_gap.expected_total) for the Hint."""
        t = self._thought(game, True)
        self.plain = t is None
        if t is not None:
            from picoyacht import final_gap

            kind, arg, value = t.result
            kind = A_SCORE if kind == self._st.SCORE else A_HOLD
            return kind, arg, final_gap.expected_total(game, value, self._table(game))
        self._fallback_step()
        kind, arg = fallback(game, 2)
        return kind, arg, -1

    # ---------------------------------------------------------------- judging moves
    def judges(self, game, seat):
        """False for a CPU seat that plays by the very estimate it would be judged with (no
        table serves the game): its moves are its own best by it, so it cannot be judged."""
        return game.kinds[seat] < CPU_NORMAL or self.exact(game)

    def cost(self, game, kind, arg):
        """Centi-points this action (A_HOLD mask before a roll, A_SCORE box) gives away,
        recorded for the game-over summary; 0 unless tips are on, strategy is there and
        the seat can be judged."""
        if self.level < 2:
            return 0
        st = self._strat()
        if st is None or not self.judges(game, game.current):
            return 0
        if self.prof is None:
            self.prof = st.Proficiency(game.nseats)
        known = self._cost  # only a CPU's box is judged ahead
        if kind != A_SCORE or arg != self._cost_box or game.kinds[game.current] == HUMAN:
            known = None
        self._cost = None
        try:
            return self.prof.record(game, st.SCORE if kind == A_SCORE else st.HOLD, arg,
                                    self._table(game), known)
        except Exception:
            return 0

    def tip(self, game, kind, arg):
        """Tips on a move about to be made (A_SCORE box, or A_HOLD mask before a roll):
        what it gives away and the best move instead, or ""."""
        return tip_words(game, self.cost(game, kind, arg), self.prof and self.prof.best, self._tbl)

    def given(self, seat):
        """Centi-points a seat gave away so far."""
        return self.prof.totals[seat] if self.prof is not None else 0

    def worst(self):
        """The game's costliest move (strategy.Proficiency.worst_move), or None."""
        return self.prof.worst_move() if self.prof is not None else None
