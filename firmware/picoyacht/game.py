"""The game as a pure state machine: seats, turns, rolls, holds, scoring, bonuses, undo.

Dice come from an injected roller (anything with d6()), so tests fix every roll and the
device seeds it from hardware entropy. Nothing here touches machine, random or time.
Every illegal action raises RuleError before changing any state.
"""

from array import array

from micropython import const

from picoyacht import rules
from picoyacht.rules import (
    CPU_EXPERT,
    JOKER_FORCED,
    JOKER_FREE,
    JOKER_ORIGINAL,
    KIND,
    MAX_NAME,
    MAX_SEATS,
    ROLLS_PER_TURN,
    UPPER,
    YAHTZEE_BONUS,
    doubles_with_sharp,
    evaluate,
    pot_share,  # noqa: F401  (results and the tests read it here)
)

# Box states shown to the player (RULES.md).
LOCKED = const(0)  # no roll yet this turn, or forbidden by the joker rule
FILLED = const(1)
POINTS = const(2)  # selectable, scores points
ZERO = const(3)  # selectable, scores 0

# The undo record's slots (Game._undo_at).
_U_BONUS = const(0)
_U_HELD = const(1)
_U_USED = const(2)
_U_LEFT = const(3)
_U_SINGLE = const(4)
_U_SLOTS = const(5)

HUMAN = const(0)  # a seat's kind: 0 is a human, 1..3 a CPU of that level


def copy_into(dst, src):
    """dst[:] = src for two of the same length, without a slice object: MicroPython
    v1.24 allocates one for every slice assignment."""
    for i in range(len(src)):
        dst[i] = src[i]


class RuleError(ValueError):
    """An illegal action; the game is unchanged."""


def _clean_name(name):
    """Printable ASCII, at most MAX_NAME characters: what the font draws and a snapshot keeps."""
    out = ""
    for ch in str(name)[:MAX_NAME]:
        out += ch if " " <= ch <= "~" else "?"
    return out or "?"


def _below(roller, n):
    """Uniform int in [0, n) for n <= 6, by rejection on the d6."""
    while True:
        r = roller.d6()
        if r <= n:
            return r - 1


def _seat_players(rs, roller, order, rolloff):
    """Set the order of play in place: shuffled (Casino), or turning from whoever throws
    highest in Deluxe's roll-off, each round of throws appended to rolloff for its screen."""
    n = len(order)
    if rs.random_seating:
        for i in range(n - 1, 0, -1):
            j = _below(roller, i + 1)
            order[i], order[j] = order[j], order[i]
    elif rs.rolloff and n > 1:
        contenders = list(range(n))
        while len(contenders) > 1:
            throws = []
            for seat in contenders:
                total = 0
                for _ in range(rs.ndice):
                    total += roller.d6()
                throws.append((seat, total))
            rolloff.append(throws)
            best = max(t for _, t in throws)
            contenders = [s for s, t in throws if t == best]
        for i in range(n):
            order[i] = (contenders[0] + i) % n


def joker_boxes(open_mask, face, variant):
    """Of the open boxes, those a joker (all dice showing face, the Yahtzee box filled) may
    fill under the joker variant: any (free); the face's upper box if open (forced); else
    a lower box; else an upper one (where the original 1956 rule scores it 0)."""
    if variant == JOKER_FREE:
        return open_mask
    face_bit = 1 << (face - 1)
    if variant == JOKER_FORCED and open_mask & face_bit:
        return face_bit
    lower_open = open_mask & ~0b111111
    return lower_open if lower_open else open_mask & 0b111111


class Game:
    """A whole game: every seat's scorecard and the turn in progress."""

    def __init__(self, ruleset, names, kinds=None, options=None, roller=None, seed=0):
        if isinstance(ruleset, int):
            if not 0 <= ruleset < rules.COUNT:
                raise RuleError("unknown rule set")
            ruleset = rules.RULESETS[ruleset]
        n = len(names)
        if not 1 <= n <= MAX_SEATS:
            raise RuleError("1 to 6 players")
        self.rs = ruleset
        self.options = options or rules.Options()
        if not 0 <= self.options.bet <= 255 or not 0 <= self.options.joker <= 2:
            raise RuleError("bet 0-255, joker 0-2")
        self.roller = roller
        self.seed = seed
        self.names = [_clean_name(x) for x in names]
        self.kinds = bytearray(kinds if kinds is not None else n)
        if len(self.kinds) != n or max(self.kinds) > CPU_EXPERT:
            raise RuleError("one kind per seat, 0-3")
        self.nseats = n
        self.filled = [0] * n
        self.scores = bytearray(n * ruleset.nboxes)
        self.ybonus = bytearray(n)  # Yahtzee bonuses earned
        self.saved = bytearray(n)  # Maxi: rolls carried into the next turn
        # Casino: this game's net credits per seat, each bet staked from the start
        self.credits = [-self.options.bet if ruleset.casino else 0] * n
        self.order = bytearray(range(n))
        self.rolloff = []  # Deluxe: the roll-off throws, for the screen
        self.turn = 0
        self.dice = bytearray(ruleset.ndice)
        self._counts = bytearray(7)
        # What the last box changed, to take it back: buffers made once, so that scoring
        # allocates nothing (a snapshot is slow on the Pico, and a fresh record allocates)
        self._undo_box = -1  # the box undo() takes back, or -1
        self._undo_at = array("i", [0] * _U_SLOTS)
        self._undo_credits = array("i", [0] * n)
        self._undo_saved = bytearray(n)
        self._undo_dice = bytearray(ruleset.ndice)
        if roller is not None:
            _seat_players(ruleset, roller, self.order, self.rolloff)
        self._start_turn()  # and the turn's fields: held, rolls used and left

    # ---- turn state ----------------------------------------------------------------
    @property
    def current(self):
        """The seat whose turn it is."""
        return self.order[self.turn % self.nseats]

    @property
    def over(self):
        return self.turn >= self.rs.nboxes * self.nseats

    def _start_turn(self):
        self.held = 0
        self.rolls_used = 0
        self.single_roll = False  # the dice came from one roll of all of them
        for i in range(len(self.dice)):
            self.dice[i] = 0
        self.rolls_left = 0 if self.over else ROLLS_PER_TURN
        if self.rolls_left and self.rs.saved_rolls and self.options.saved_rolls:
            self.rolls_left += self.saved[self.current]  # Maxi: the rolls saved last turn
            self.saved[self.current] = 0

    def roll(self):
        """Roll every die that is not held."""
        if self.over:
            raise RuleError("the game is over")
        if self.rolls_left <= 0:
            raise RuleError("no rolls left")
        if self.rolls_used and self.held == (1 << len(self.dice)) - 1:
            raise RuleError("every die is held")
        if self.roller is None:
            raise RuleError("no roller")
        held = self.held if self.rolls_used else 0
        for i in range(len(self.dice)):
            if not held & (1 << i):
                self.dice[i] = self.roller.d6()
        self.single_roll = held == 0
        self.held = held
        self.rolls_used += 1
        self.rolls_left -= 1
        self._undo_box = -1

    def set_held(self, mask):
        if not self.rolls_used:
            raise RuleError("roll before holding")
        if mask < 0 or mask >> len(self.dice):
            raise RuleError("no such die")
        self.held = mask

    # ---- scoring -------------------------------------------------------------------
    def box_score(self, seat, box):
        return self.scores[seat * self.rs.nboxes + box]

    def is_filled(self, seat, box):
        return bool(self.filled[seat] >> box & 1)

    def _joker_face(self):
        """The face of a joker, else 0: a Yahtzee (all dice alike) rolled once the Yahtzee
        box is filled, in the Yahtzee rule set."""
        if not self.rs.joker or not self.rolls_used:
            return 0
        if not self.is_filled(self.current, self.rs.yahtzee_box):
            return 0
        d = self.dice[0]
        for x in self.dice:
            if x != d:
                return 0
        return d

    def allowed(self):
        """Bitmask of the boxes the current seat may fill now."""
        if not self.rolls_used or self.over:
            return 0
        open_mask = ((1 << self.rs.nboxes) - 1) & ~self.filled[self.current]
        face = self._joker_face()
        return joker_boxes(open_mask, face, self.options.joker) if face else open_mask

    def _box_value(self, box, counts, joker_face):
        """Points the current dice (as counts) would put in `box`, before any bonus."""
        spec = self.rs.boxes[box]
        variant = self.options.joker
        if joker_face and spec[KIND] == UPPER and variant == JOKER_ORIGINAL:
            return 0  # the 1956 rule: a joker may not score in the upper section
        # a joker satisfies any lower box; under the free rule only once the upper box of
        # its face is filled
        joker = joker_face and spec[KIND] != UPPER and (
            variant != JOKER_FREE or self.is_filled(self.current, joker_face - 1))
        s = evaluate(spec, counts, joker)
        if s <= 0:
            return 0
        if self.single_roll and self.rs.sharp and self.options.sharp and doubles_with_sharp(spec):
            return 2 * s  # Sharp Dice: a first-roll box scores double
        return s

    def preview(self, box):
        """What the box shows now: its score if filled, else what scoring it would give."""
        seat = self.current
        if self.over or self.is_filled(seat, box):
            return self.box_score(seat, box)
        if not self.rolls_used:
            return 0
        rules.counts_of(self.dice, self._counts)
        return self._box_value(box, self._counts, self._joker_face())

    def box_state(self, box):
        seat = self.current
        if self.over or self.is_filled(seat, box):
            return FILLED
        if not self.allowed() >> box & 1:
            return LOCKED
        return POINTS if self.preview(box) > 0 else ZERO

    def card(self, states, values):
        """box_state() and preview() of every box into states and values in one pass: box
        by box would redo the dice's counts and the joker checks for each box."""
        seat = self.current
        allowed = self.allowed()
        counts = self._counts
        face = 0
        if allowed:
            rules.counts_of(self.dice, counts)
            face = self._joker_face()
        done = self.filled[seat]
        over = self.over
        for b in range(self.rs.nboxes):
            if over or done >> b & 1:
                states[b] = FILLED
                values[b] = self.box_score(seat, b)
            elif allowed >> b & 1:
                v = self._box_value(b, counts, face)
                states[b] = POINTS if v > 0 else ZERO
                values[b] = v
            else:
                states[b] = LOCKED
                values[b] = 0

    def pending_yahtzee_bonus(self):
        """The Yahtzee bonus that scoring now would earn (0 or 100): a joker while the
        Yahtzee box holds points."""
        if self._joker_face() and self.box_score(self.current, self.rs.yahtzee_box) > 0:
            return YAHTZEE_BONUS
        return 0

    def score(self, box):
        """Fill `box` for the current seat and pass the turn. Returns the box's points."""
        if self.over:
            raise RuleError("the game is over")
        if not 0 <= box < self.rs.nboxes:
            raise RuleError("no such box")
        seat = self.current
        if self.is_filled(seat, box):
            raise RuleError("that box is already filled")
        if not self.rolls_used:
            raise RuleError("roll before scoring")
        if not self.allowed() >> box & 1:
            raise RuleError("the joker rule forbids that box")
        points = self.preview(box)
        bonus = self.pending_yahtzee_bonus()
        first_roll = self.rolls_used == 1 and points > 0
        reward = self.rs.first_roll_reward(box, self.options.bet) if first_roll else 0
        u = self._undo_at
        u[_U_BONUS] = bonus
        u[_U_HELD] = self.held
        u[_U_USED] = self.rolls_used
        u[_U_LEFT] = self.rolls_left
        u[_U_SINGLE] = self.single_roll
        copy_into(self._undo_credits, self.credits)
        copy_into(self._undo_saved, self.saved)
        copy_into(self._undo_dice, self.dice)
        self.scores[seat * self.rs.nboxes + box] = points
        self.filled[seat] |= 1 << box
        if bonus:
            self.ybonus[seat] += 1
        self.credits[seat] += reward
        if self.rs.saved_rolls and self.options.saved_rolls:
            self.saved[seat] = self.rolls_left
        self.turn += 1
        if self.over and self.rs.casino:
            self._pay_pot()
        self._start_turn()
        self._undo_box = box
        return points

    def _pay_pot(self):
        win = self.winners()  # they split the pot: every seat's bet
        for s in win:
            self.credits[s] += pot_share(self, s, win)

    @property
    def can_undo(self):
        return self._undo_box >= 0

    def undo(self):
        """Take back the last scored box; allowed until the next roll."""
        box = self._undo_box
        if box < 0:
            raise RuleError("nothing to undo")
        self._undo_box = -1
        u = self._undo_at
        self.held = u[_U_HELD]
        self.rolls_used = u[_U_USED]
        self.rolls_left = u[_U_LEFT]
        self.single_roll = bool(u[_U_SINGLE])
        copy_into(self.credits, self._undo_credits)
        self.turn -= 1
        seat = self.current
        self.scores[seat * self.rs.nboxes + box] = 0
        self.filled[seat] &= ~(1 << box)
        if u[_U_BONUS]:
            self.ybonus[seat] -= 1
        copy_into(self.saved, self._undo_saved)
        copy_into(self.dice, self._undo_dice)

    # ---- totals and the end --------------------------------------------------------
    def upper_total(self, seat):
        return self._sum(seat, 6)

    def _sum(self, seat, n):
        """The first n boxes of a seat's card; by index, so screens redraw allocation-free."""
        sc = self.scores
        base = seat * self.rs.nboxes
        t = 0
        for b in range(base, base + n):
            t += sc[b]
        return t

    def upper_bonus(self, seat):
        """Credited the moment the upper total reaches the threshold."""
        if self.upper_total(seat) >= self.rs.bonus_at:
            return self.rs.upper_bonus(self.options)
        return 0

    def total(self, seat):
        boxes = self._sum(seat, self.rs.nboxes)
        return boxes + self.upper_bonus(seat) + YAHTZEE_BONUS * self.ybonus[seat]

    def winners(self):
        """Seats with the highest total (several on a tie)."""
        best = max(self.total(s) for s in range(self.nseats))
        return [s for s in range(self.nseats) if self.total(s) == best]

    # ---- snapshot ------------------------------------------------------------------
    def snapshot(self):
        from picoyacht import snapshot

        return snapshot.dump(self)

    @staticmethod
    def restore(data, roller=None):
        from picoyacht import snapshot

        return snapshot.load(data, roller, Game)

