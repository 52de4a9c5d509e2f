"""Every rule set as data, and one scorer that reads that data.

A box is a tuple (name, abbr, kind, a, b, mode, value). Scoring works on face counts
(a bytearray of 7, index 1..6) so the order of the dice never matters, and it allocates
nothing: the only search (fitting "parts" such as 3+2 onto faces) mutates and restores the
counts in place. Integers only: the device never does float arithmetic in the rules.
"""

from micropython import const

MAX_SEATS = const(6)
MAX_NAME = const(8)  # characters of a player's name: what the screens and the saves keep


def name_ok(b):
    """Whether the bytes b may be a stored player's name: no control character (C0, DEL,
    or C1 as UTF-8: the font has no glyph for one, and a name a check refuses must never
    reach the records). Whether b is UTF-8 is the caller's decode to find."""
    for i in range(len(b)):
        c = b[i]
        if c < 32 or c == 127 or (c == 0xC2 and i + 1 < len(b) and 0x80 <= b[i + 1] < 0xA0):
            return False
    return True
ROLLS_PER_TURN = const(3)
CPU_NORMAL = const(2)  # seat kinds: 0 is a human, 1..3 a CPU of that level (Easy, Normal, Expert)
CPU_EXPERT = const(3)  # the highest
YAHTZEE_BONUS = const(100)

# End-of-game ratings of a box's score against its maximum (RuleSet.rating).
RATE_ZERO = const(0)
RATE_LOW = const(1)  # at most half the maximum
RATE_HIGH = const(2)  # more than half, below the maximum
RATE_MAX = const(3)
RATE_ABOVE = const(4)  # only with Sharp Dice

# Box tuple fields.
NAME = const(0)
ABBR = const(1)
KIND = const(2)
ARG_A = const(3)
ARG_B = const(4)
MODE = const(5)
VALUE = const(6)

# Kinds. UPPER: a = face. PARTS: a = part sizes as nibbles, lowest first (3+2 -> 0x23),
# b = 1 when every part needs a different face. RUN: a = length, b = bitmask of the
# faces a run may start on. CHANCE: always satisfied.
UPPER = const(0)
PARTS = const(1)
RUN = const(2)
CHANCE = const(3)

# Score modes once a box is satisfied.
MATCHED = const(0)  # sum of the dice that make the combination (best fit)
ALL = const(1)  # sum of all dice
FIXED = const(2)  # VALUE
ALL_PLUS = const(3)  # sum of all dice + VALUE

# Rule set ids (stable: they are stored in snapshots and settings).
YAHTZEE = const(0)
YATZY = const(1)
CASINO5 = const(2)
CASINO6 = const(3)
MAXI = const(4)
DELUXE = const(5)
COUNT = const(6)

# Joker variants (Yahtzee only).
JOKER_FORCED = const(0)
JOKER_FREE = const(1)
JOKER_ORIGINAL = const(2)
JOKER_NAMES = ("Forced", "Free", "Original")

_UPPER_NAMES = ("Ones", "Twos", "Threes", "Fours", "Fives", "Sixes")
_ACE_NAMES = ("Aces",) + _UPPER_NAMES[1:]


def _upper(names):
    return tuple((names[f - 1], str(f) + "s", UPPER, f, 0, MATCHED, 0) for f in range(1, 7))


def _yahtzee_boxes():
    return _upper(_ACE_NAMES) + (
        ("Three of a kind", "3K", PARTS, 0x3, 0, ALL, 0),
        ("Four of a kind", "4K", PARTS, 0x4, 0, ALL, 0),
        ("Full house", "FH", PARTS, 0x23, 1, FIXED, 25),
        ("Small straight", "SS", RUN, 4, 0b1110, FIXED, 30),
        ("Large straight", "LS", RUN, 5, 0b110, FIXED, 40),
        ("Yahtzee", "YZ", PARTS, 0x5, 0, FIXED, 50),
        ("Chance", "CH", CHANCE, 0, 0, ALL, 0),
    )


def _yatzy_boxes(yatzy_mode, yatzy_value):
    return _upper(_UPPER_NAMES) + (
        ("One pair", "1P", PARTS, 0x2, 1, MATCHED, 0),
        ("Two pairs", "2P", PARTS, 0x22, 1, MATCHED, 0),
        ("Three of a kind", "3K", PARTS, 0x3, 1, MATCHED, 0),
        ("Four of a kind", "4K", PARTS, 0x4, 1, MATCHED, 0),
        ("Small straight", "SS", RUN, 5, 0b10, FIXED, 15),
        ("Large straight", "LS", RUN, 5, 0b100, FIXED, 20),
        ("Full house", "FH", PARTS, 0x23, 1, MATCHED, 0),
        ("Chance", "CH", CHANCE, 0, 0, ALL, 0),
        ("Yatzy", "YZ", PARTS, 0x5, 0, yatzy_mode, yatzy_value),
    )


def _maxi_boxes(full_house_mode, yatzy_mode, yatzy_value):
    return _upper(_UPPER_NAMES) + (
        ("One pair", "1P", PARTS, 0x2, 1, MATCHED, 0),
        ("Two pairs", "2P", PARTS, 0x22, 1, MATCHED, 0),
        ("Three pairs", "3P", PARTS, 0x222, 1, MATCHED, 0),
        ("Three of a kind", "3K", PARTS, 0x3, 1, MATCHED, 0),
        ("Four of a kind", "4K", PARTS, 0x4, 1, MATCHED, 0),
        ("Five of a kind", "5K", PARTS, 0x5, 1, MATCHED, 0),
        ("Small straight", "SS", RUN, 5, 0b10, FIXED, 15),
        ("Large straight", "LS", RUN, 5, 0b100, FIXED, 20),
        ("Full straight", "FS", RUN, 6, 0b10, FIXED, 21),
        ("Full house", "FH", PARTS, 0x23, 1, full_house_mode, 0),
        ("Villa 2x3", "VI", PARTS, 0x33, 1, ALL, 0),
        ("Tower 4+2", "TO", PARTS, 0x24, 1, ALL, 0),
        ("Chance", "CH", CHANCE, 0, 0, ALL, 0),
        ("Maxi Yatzy", "MY", PARTS, 0x6, 0, yatzy_mode, yatzy_value),
    )


def _deluxe_boxes():
    return _upper(_UPPER_NAMES) + (
        ("Three pairs", "3P", PARTS, 0x222, 0, FIXED, 20),
        ("Two triplets", "2T", PARTS, 0x33, 0, FIXED, 30),
        ("Full house", "FH", PARTS, 0x24, 0, FIXED, 40),
        ("Straight", "ST", RUN, 6, 0b10, FIXED, 50),
        ("Yahtzee", "YZ", PARTS, 0x6, 0, FIXED, 60),
        ("Small straight", "SS", RUN, 5, 0b110, ALL, 0),
        ("Small Yahtzee", "SY", PARTS, 0x5, 0, ALL, 0),
        ("Chance", "CH", CHANCE, 0, 0, ALL, 0),
    )


class RuleSet:
    """One game's static rules. Options that change scoring live in Options, not here."""

    def __init__(self, rid, name, ndice, boxes, bonus_at, bonus, **flags):
        self.id = rid
        self.name = name
        self.ndice = ndice
        self.boxes = boxes
        self.nboxes = len(boxes)
        self.bonus_at = bonus_at
        self.bonus = bonus
        self.joker = flags.get("joker", False)  # Yahtzee bonus + joker rules
        self.sharp = flags.get("sharp", False)  # Sharp Dice may be switched on
        self.saved_rolls = flags.get("saved_rolls", False)
        self.bonus_option = flags.get("bonus_option", False)  # +50 or +100 (Maxi)
        self.casino = flags.get("casino", False)
        self.random_seating = flags.get("random_seating", False)
        self.rolloff = flags.get("rolloff", False)
        self.yahtzee_box = -1
        self.full_house_box = -1
        self.large_straight_box = -1
        for i, box in enumerate(boxes):
            abbr = box[ABBR]
            if abbr in ("YZ", "MY") and box[KIND] == PARTS and (box[ARG_A] & 15) == ndice:
                self.yahtzee_box = i
            elif abbr == "FH":
                self.full_house_box = i
            elif abbr == "LS":
                self.large_straight_box = i
        self._maxima = None

    def upper_bonus(self, options):
        """The upper-section bonus in force: Maxi's depends on an option."""
        if self.bonus_option:
            return 100 if options.bonus100 else 50
        return self.bonus

    def box_max(self, box):
        """Largest score the box can take from any dice (no Sharp Dice), for ratings."""
        if self._maxima is None:
            maxima = bytearray(self.nboxes)
            for counts in multisets(self.ndice):
                for i in range(self.nboxes):
                    s = evaluate(self.boxes[i], counts)
                    if s > maxima[i]:
                        maxima[i] = s
            self._maxima = maxima
        return self._maxima[box]

    def rating(self, box, points):
        """How `points` in `box` compare with the most it can take: one of RATE_*."""
        most = self.box_max(box)
        if points == 0:
            return RATE_ZERO
        if points > most:
            return RATE_ABOVE
        if points == most:
            return RATE_MAX
        return RATE_LOW if 2 * points <= most else RATE_HIGH

    def first_roll_reward(self, box, bet):
        """Credits the bank pays for scoring `box` from a turn's first roll: Casino's Large
        Straight, Full House and Yatzy (RULES.md)."""
        if not self.casino:
            return 0
        if box == self.large_straight_box:
            return bet // 2
        if box == self.full_house_box:
            return bet
        if box == self.yahtzee_box:
            return 2 * bet
        return 0


NAMES = ("Yahtzee", "Yatzy", "Casino 5", "Casino 6", "Maxi Yatzy", "Deluxe")


def _build(rid):
    name = NAMES[rid]
    if rid == YAHTZEE:
        return RuleSet(rid, name, 5, _yahtzee_boxes(), 63, 35, joker=True, sharp=True)
    if rid == YATZY:
        return RuleSet(rid, name, 5, _yatzy_boxes(FIXED, 50), 63, 50, sharp=True)
    if rid == CASINO5:
        return RuleSet(rid, name, 5, _yatzy_boxes(ALL_PLUS, 50), 63, 50,
                       casino=True, random_seating=True)
    if rid == CASINO6:
        return RuleSet(rid, name, 6, _maxi_boxes(ALL, ALL_PLUS, 100), 84, 100,
                       casino=True, random_seating=True)
    if rid == MAXI:
        return RuleSet(rid, name, 6, _maxi_boxes(MATCHED, FIXED, 100), 84, 50,
                       saved_rolls=True, bonus_option=True)
    if rid == DELUXE:
        return RuleSet(rid, name, 6, _deluxe_boxes(), 84, 50, rolloff=True)
    raise IndexError("rule set")


class _RuleSets:
    """Indexable like a tuple, but builds a rule set only when asked and keeps just the
    last one: the device plays one game at a time and the box tables cost heap."""

    def __init__(self):
        self._last = None

    def __len__(self):
        return COUNT

    def __getitem__(self, rid):
        last = self._last
        if last is None or last.id != rid:
            if not 0 <= rid < COUNT:
                raise IndexError("rule set")
            last = self._last = _build(rid)
        return last

    def __iter__(self):
        for rid in range(COUNT):
            yield self[rid]


RULESETS = _RuleSets()


BETS = (5, 10, 20, 50)  # Casino's bets, Options.bet


class Options:
    """Player-chosen variations. Only the ones a rule set allows have any effect."""

    def __init__(self, joker=JOKER_FORCED, sharp=False, saved_rolls=True, bonus100=False,
                 bet=10):
        self.joker = joker
        self.sharp = sharp
        self.saved_rolls = saved_rolls
        self.bonus100 = bonus100
        self.bet = bet

    def pack(self):
        """Two bytes: flags and joker in one, the bet in the other."""
        return (self.joker & 3) | (self.sharp << 2) | (self.saved_rolls << 3) | (
            self.bonus100 << 4), self.bet

    @classmethod
    def unpack(cls, flags, bet):
        if flags & 0xE0 or (flags & 3) == 3:
            raise ValueError("bad options byte")
        return cls(flags & 3, bool(flags & 4), bool(flags & 8), bool(flags & 16), bet)

    def __eq__(self, other):
        return isinstance(other, Options) and self.pack() == other.pack()


def counts_of(dice, out):
    """Fill out[1..6] with how many dice show each face; returns the dice total."""
    for f in range(7):
        out[f] = 0
    total = 0
    for d in dice:
        out[d] += 1
        total += d
    return total


def _fit(counts, parts, used, distinct):
    """Best sum of dice matched by `parts` (nibbles) on `counts`, or -1 if they don't fit."""
    if parts == 0:
        return 0
    size = parts & 15
    best = -1
    for f in range(6, 0, -1):
        c = counts[f]
        if c < size or (distinct and used & (1 << f)):
            continue
        counts[f] = c - size
        rest = _fit(counts, parts >> 4, used | (1 << f), distinct)
        counts[f] = c
        if rest >= 0 and rest + size * f > best:
            best = rest + size * f
            if not distinct:
                break  # shared-face boxes score fixed or total: feasibility is enough
    return best


def _run(counts, length, starts):
    for s in range(1, 8 - length):
        if starts & (1 << s):
            for f in range(s, s + length):
                if not counts[f]:
                    break
            else:
                return True
    return False


def evaluate(box, counts, joker=False):
    """Score of `box` for these counts, or -1 if the dice do not satisfy it.

    joker=True treats any lower box as satisfied (the Yahtzee joker rule): fixed boxes
    score their value and sum boxes the dice total."""
    kind = box[KIND]
    if kind == UPPER:
        f = box[ARG_A]
        return counts[f] * f
    total = 0
    for f in range(1, 7):
        total += counts[f] * f
    mode = box[MODE]
    matched = total
    if kind == PARTS:
        matched = _fit(counts, box[ARG_A], 0, box[ARG_B])
        if matched < 0 and not joker:
            return -1
    elif kind == RUN:
        if not joker and not _run(counts, box[ARG_A], box[ARG_B]):
            return -1
    if mode == FIXED:
        return box[VALUE]
    if mode == ALL:
        return total
    if mode == ALL_PLUS:
        return total + box[VALUE]
    return matched if matched >= 0 else total


def score(box, counts):
    """Score of `box` for these counts, 0 when unsatisfied (no joker, no Sharp Dice)."""
    s = evaluate(box, counts)
    return s if s > 0 else 0


def doubles_with_sharp(box):
    """Sharp Dice doubles every lower box except Chance."""
    return box[KIND] != UPPER and box[KIND] != CHANCE


def multisets(ndice):
    """Yield every multiset of `ndice` dice as face counts (one reused bytearray)."""
    c = bytearray(7)
    for c1 in range(ndice + 1):
        for c2 in range(ndice - c1 + 1):
            for c3 in range(ndice - c1 - c2 + 1):
                for c4 in range(ndice - c1 - c2 - c3 + 1):
                    for c5 in range(ndice - c1 - c2 - c3 - c4 + 1):
                        c[1] = c1
                        c[2] = c2
                        c[3] = c3
                        c[4] = c4
                        c[5] = c5
                        c[6] = ndice - c1 - c2 - c3 - c4 - c5
                        yield c


def pot_share(g, seat, win):
    """What `seat` takes of the pot (every seat's bet) shared by the winners `win`: an
    even share, and what does not divide a credit each to the first winners in playing
    order, so every credit staked is paid out (RULES.md, Casino)."""
    pot = g.options.bet * g.nseats
    share = pot // len(win)
    odd = pot % len(win)
    for i in range(g.nseats):
        if not odd:
            break
        s = g.order[i]
        if s in win:
            if s == seat:
                return share + 1
            odd -= 1
    return share
