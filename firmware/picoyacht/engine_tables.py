"""What one rule set's CPU search reads and writes: its score tables and work arrays, built
once per engine, in steps. picoyacht.engine's Engine extends EngineTables with the search.

    roll_scores[b - 6][r]             points of roll r in lower box b (upper ones: counts)
    joker_scores[(f - 1) * nb + b]    points of n dice showing f in box b, as a joker
    yahtzee_rolls[f - 1]              the index of the roll of n dice showing f
    doubles                           Sharp Dice on: bit b set for a box it doubles; else 0
    hold_values[keep], roll_values[r] the search's work arrays (see picoyacht.engine)

A module apart from the search because building is a job of its own, done once, while
the search runs at every decision. Like the search, the build is a generator that yields
its work in COST units (about a microsecond each on the Pico), so the device spreads it
over loop passes.
"""

import gc

from micropython import const

from picoyacht import rules
from picoyacht.dice import Dice, work_array
from picoyacht.heap import locked

# Work per yield in COST units: per item of the work arrays allocated, per box score
# evaluated (six dice: about twice as much).
_C_ALLOC = const(40)
_C_EVAL = const(420)
_C_EVAL6 = const(940)
_C_PASS = const(1 << 20)  # over any pass's budget: the next step starts a pass of its own


def collect_steps():
    """A collection in a loop pass of its own. A build leaves its temporaries and Normal's
    pars their generators: left to pile up, they set off the collector in whichever pass
    next allocates, on top of that pass's frame."""
    yield _C_PASS
    gc.collect()
    yield _C_PASS


class EngineTables:
    """One rule set's score tables and the search's work arrays (see the module docstring)."""

    def __init__(self, rs, options):
        self.rs = rs
        self.options = options or rules.Options()
        self.nb = rs.nboxes
        self.nlower = rs.nboxes - 6  # lower boxes: their scores per roll (upper: counts)
        self.dice = Dice(rs.ndice, True)
        self.joker_box = rs.yahtzee_box if rs.joker else -1
        self.counts = bytearray(7)
        doubles = 0
        if rs.sharp and self.options.sharp:
            for b in range(6, rs.nboxes):
                if rules.doubles_with_sharp(rs.boxes[b]):
                    doubles |= 1 << b
        self.doubles = doubles
        # Every attribute is set here, the build's arrays too: one added later would grow
        # the instance's attribute table, a block the tight heap of the build may not hold
        self.nrolls = self.dice.nrolls
        self.hold_values = self.roll_values = None
        self.one_throw_scale = 0  # see engine.one_throw_value
        self.roll_scores = self.joker_scores = self.yahtzee_rolls = None
        self.ready = False
        self._build = self._build_steps()

    def build_steps(self):
        """Finishes this engine's build, wherever it was left (whoever asks first)."""
        build = self._build
        if build is not None:
            for cost in build:
                yield cost
            self._build = None  # a finished generator keeps its frame on the heap
        if not self.ready:  # the build died (MemoryError): this engine is unusable
            raise MemoryError("engine build")

    def lend(self):
        """Lets go of the largest work array (its values are remade at every decision): a
        save that found no run of heap long enough for its file gets this one's, and
        regain() takes one back at the next decision, where the file's run is free again."""
        self.hold_values = None
        self.hold_stage = -1

    def regain(self):
        if self.hold_values is None:
            self.hold_values = work_array("i", self.dice.nkeeps)

    def _build_steps(self):
        rs = self.rs
        n, nb, nlower = rs.ndice, self.nb, self.nlower
        d = self.dice
        # Every work array first, largest first, on a freshly collected heap: allocated
        # between the steps' garbage, the later ones found no free run long enough. For
        # the same reason none is longer than a few rolls' worth: the roll scores are an
        # array per box (and the keeps' children an array per face, see Dice).
        yield from collect_steps()
        self.hold_values = work_array("i", d.nkeeps)
        d.allocate()
        self.roll_values = work_array("i", d.nrolls)
        roll_scores = [bytearray(d.nrolls) for _ in range(nlower)]
        yield d.nkeeps * _C_ALLOC
        yield from d.steps
        d.steps = None  # a finished generator keeps its frame on the heap
        c_eval = _C_EVAL6 if n > 5 else _C_EVAL
        for r in range(d.nrolls):
            locked(EngineTables._score_roll, self, roll_scores, r)
            yield nlower * c_eval  # a roll a step
        self.roll_scores = roll_scores
        self.joker_scores = bytearray(6 * nb)  # Yahtzee: joker scores of five alike, per face
        self.yahtzee_rolls = bytearray(6)
        if rs.joker:
            for f in range(1, 7):
                locked(EngineTables._score_joker, self, f, None)
                yield nb * c_eval
        self.ready = True
        yield from collect_steps()

    def _score_roll(self, roll_scores, r):
        """Roll r's points in each lower box, into roll_scores."""
        d = self.dice
        counts = self.counts
        code = d.roll_codes[r]
        for f in range(6):
            counts[f + 1] = (code >> (3 * f)) & 7
        boxes = self.rs.boxes
        for b in range(6, self.nb):
            s = rules.evaluate(boxes[b], counts)
            roll_scores[b - 6][r] = s if s > 0 else 0

    def _score_joker(self, f, _):
        """The roll of every die showing f: its index, and its points in each box as a joker."""
        d = self.dice
        n, nb = d.n, self.nb
        counts = self.counts
        for g in range(7):
            counts[g] = 0
        counts[f] = n
        self.yahtzee_rolls[f - 1] = d.index(n << (3 * (f - 1)), n) - d.first_roll
        boxes = self.rs.boxes
        for b in range(nb):
            s = rules.evaluate(boxes[b], counts, True)
            self.joker_scores[(f - 1) * nb + b] = s if s > 0 else 0

    def score(self, r, b):
        """Points of roll r (0 .. nrolls-1) in box b, no joker."""
        if b < 6:
            return ((self.dice.roll_codes[r] >> (3 * b)) & 7) * (b + 1)
        return self.roll_scores[b - 6][r]

    def keep_mask(self, dice, keep):
        """A held mask over the dice positions that keeps multiset `keep` (lowest positions
        first for each face)."""
        code = self.dice.code(keep)
        mask = 0
        for i in range(len(dice)):
            sh = 3 * (dice[i] - 1)
            if (code >> sh) & 7:
                code -= 1 << sh
                mask |= 1 << i
        return mask
