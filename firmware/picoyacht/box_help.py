"""Every box of every game in words: what the dice must show, and what it scores. One
source for the scorecard's help (a long Menu on a box), the web page's rules panel and the
tables in docs/RULES.md (host_tests/test_box_help.py holds the three together).

The help is a screen of its own that the card loads ahead, in a quiet pass once it shows
(Card.NEXT), so the long press that opens it imports nothing; it leaves the heap with the
card's next show(). Opening it allocates nothing either: the words are copied from these
bytes into rows it made when it loaded. A box is a line b"needs|score"; each rule set lists
its boxes' lines."""

from micropython import const

from picoyacht.buttons import B_MENU, B_OK, B_ROLL
from picoyacht.fast import copy
from picoyacht.rules import NAME
from picoyacht.screens import CELL, Screen, header

_COLS = const(21)  # a row of text, as menus' notes wrap
_ROWS = const(5)  # rows between the title bar and the hint: every box's words fit
_LONGEST = const(72)  # bytes of one sentence after the box's name (the tests hold this)
_SPACE = const(32)

# Every distinct box, one line each; a rule set's boxes are lines of it (BOXES).
_LINES = (
    b"anything|total of that face\n"  # 0: the upper section
    b"two alike|the highest pair\n"
    b"two pairs of different faces|those four dice\n"
    b"three alike|those three dice\n"
    b"four alike|those four dice\n"
    b"exactly 1-2-3-4-5|15\n"  # 5
    b"exactly 2-3-4-5-6|20\n"
    b"three of one face and two of a different face|sum\n"
    b"anything|sum\n"
    b"five alike|50\n"
    b"five alike|sum + 50\n"  # 10
    b"three pairs of different faces|sum of all six\n"
    b"five alike|those five dice\n"
    b"1-2-3-4-5|15\n"
    b"2-3-4-5-6|20\n"
    b"1-2-3-4-5-6|21\n"  # 15
    b"three of one face and two of a different face|sum of all six\n"
    b"three of one face and two of another|those five dice\n"
    b"two triples of different faces|sum of all six\n"
    b"four alike and a pair of another face|sum of all six\n"
    b"anything|sum of all six\n"  # 20
    b"six alike|sum + 100\n"
    b"six alike|100\n"
    b"at least three alike|sum\n"
    b"at least four alike|sum\n"
    b"three of one face and two of another|25\n"  # 25
    b"four in a row (1-2-3-4, 2-3-4-5 or 3-4-5-6)|30\n"
    b"five in a row (1-2-3-4-5 or 2-3-4-5-6)|40\n"
    b"three pairs (four alike and a pair, or six alike, also count)|20\n"
    b"two sets of three (six alike counts)|30\n"
    b"four alike and a pair (six alike counts)|40\n"  # 30
    b"1-2-3-4-5-6|50\n"
    b"six alike|60\n"
    b"five in a row (a full straight counts)|sum of all six\n"
    b"at least five alike|sum of all six\n"
)

# By rule set id (rules.YAHTZEE, YATZY, CASINO5, CASINO6, MAXI, DELUXE): each box's line.
BOXES = (
    b"\0\0\0\0\0\0\x17\x18\x19\x1a\x1b\x09\x08",
    b"\0\0\0\0\0\0\x01\x02\x03\x04\x05\x06\x07\x08\x09",
    b"\0\0\0\0\0\0\x01\x02\x03\x04\x05\x06\x07\x08\x0a",
    b"\0\0\0\0\0\0\x01\x02\x0b\x03\x04\x0c\x0d\x0e\x0f\x10\x12\x13\x14\x15",
    b"\0\0\0\0\0\0\x01\x02\x0b\x03\x04\x0c\x0d\x0e\x0f\x11\x12\x13\x14\x16",
    b"\0\0\0\0\0\0\x1c\x1d\x1e\x1f\x20\x21\x22\x14",
)

# A game's other rules, by the RuleSet flag that calls for them (the page's rules panel).
JOKER = (b"Yahtzee bonus: +100 for each further Yahtzee while the Yahtzee box holds 50. "
         b"Jokers (option): a Yahtzee after its box is filled scores elsewhere, by the "
         b"Forced (default), Free or Original (1956) rule.")
SHARP = (b"Sharp Dice (option, off): a lower box other than Chance scores double when its "
         b"dice came from one roll of all of them.")
SAVED = b"Saved rolls (option, on): rolls you leave unused are added to your next turn."
BONUS_OPTION = b"Upper bonus (option): +50 or +100 at 84."
CASINO = (b"Bet (option: 5, 10, 20 or 50 credits): every player stakes it and the winner "
          b"takes the pot. A Large straight, Full house or Yatzy from the turn's first roll "
          b"also pays 0.5x, 1x or 2x the bet. Each name has a wallet: 100 credits to "
          b"start, filled back to 100 when short of the bet. Players start in a random "
          b"order.")
ROLLOFF = b"Who starts: everyone throws all six dice; the highest total starts."


def box_words(rid, box):
    """(needs, scores) of a rule set's box, as str."""
    at = _line(rid, box)
    needs, _, scores = _LINES[at:_LINES.find(b"\n", at)].partition(b"|")
    return needs.decode(), scores.decode()


def upper_bonus_words(rs, options):
    """The upper bonus in words, as the game plays it (the help screen composes the same)."""
    return "Upper bonus: +%d at %d or more" % (rs.upper_bonus(options), rs.bonus_at)


def _line(rid, box):
    """Where the line of a rule set's box starts in _LINES."""
    at = 0
    for _ in range(BOXES[rid][box]):
        at = _LINES.find(b"\n", at) + 1
    return at


def _put(dst, at, src, start=0, end=-1):
    """src[start:end] (to its end by default) into dst from at, by fast.copy (no slice
    where the port compiles it). The index after it."""
    if end < 0:
        end = len(src)
    copy(dst, at, src, start, end - start)
    return at + end - start


def _put_num(dst, at, n):
    """n >= 0 in decimal digits into dst from at; the index after it."""
    d = 1
    while d * 10 <= n:
        d *= 10
    while d:
        dst[at] = 48 + n // d % 10
        at += 1
        d //= 10
    return at


class BoxHelp(Screen):
    """A card row in words over the card: the box's name, what it needs and what it
    scores (any other row: the upper bonus). OK, Menu or Roll goes back to the card.

    The name is drawn as the rules give it; what follows is composed into `words` and
    broken into `rows` as menus.wrap breaks a note, the first row starting after the
    name (a name never breaks: the space after its colon is always within the row)."""

    NAME = "box_help"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.hint = app.keys("OK: back")
        self.name = ""
        self.words = bytearray(_LONGEST)
        self.rows = [bytearray(_COLS) for _ in range(_ROWS)]
        self.lens = bytearray(_ROWS)  # each row's length
        self.nrows = 0

    def explain(self, game, code):
        """Compose the words for the card row `code` (a box, else the upper bonus)."""
        rs = game.rs
        w = self.words
        self.nrows = 0
        if code >= rs.nboxes:
            self.name = "Upper bonus"
            n = _put_num(w, _put(w, 0, b": +"), rs.upper_bonus(game.options))
            n = _put_num(w, _put(w, n, b" at "), rs.bonus_at)
            self._wrap(_put(w, n, b" or more."), len(self.name))
            return
        self.name = rs.boxes[code][NAME]
        at = _line(rs.id, code)
        bar = _LINES.find(b"|", at)
        n = _put(w, _put(w, 0, b": "), _LINES, at, bar)
        self._wrap(_put(w, n, b";"), len(self.name))
        n = _put(w, _put(w, 0, b"scores "), _LINES, bar + 1, _LINES.find(b"\n", bar))
        self._wrap(_put(w, n, b"."), 0)

    def _wrap(self, n, col):
        """words[:n] into the next rows, broken at the last space that fits as menus.wrap
        breaks a line; the first row's first `col` columns are taken (the name)."""
        w = self.words
        at = 0
        while self.nrows < _ROWS:
            room = _COLS - col
            cut = n - at
            if cut > room:
                cut = room
                while cut >= 0 and w[at + cut] != _SPACE:
                    cut -= 1
                if cut < 0 or cut + col == 0:  # no space, or only at the row's start
                    cut = room
            row = self.nrows
            self.lens[row] = _put(self.rows[row], 0, w, at, at + cut)
            self.nrows = row + 1
            at += cut
            if at >= n:
                return
            while at < n and w[at] == _SPACE:
                at += 1
            col = 0

    def key(self, btn):
        if btn == B_OK or btn == B_MENU or btn == B_ROLL:
            self.app.back()

    def draw(self, cv):
        cv.clear()
        header(cv, "Box help")
        x = cv.text(self.name, 1, 8)
        for i in range(self.nrows):
            row = self.rows[i]
            y = 8 + 8 * i
            for j in range(self.lens[i]):  # codes, not characters: Canvas.text takes str
                cv.glyph(row[j], x, y)
                x += CELL
            x = 1
        cv.text(self.hint, 1, 56, 1, _COLS)


SCREENS = (BoxHelp,)  # what App.find opens by NAME
