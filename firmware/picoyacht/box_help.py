"""Every box of every game in words: what the dice must show, and what it scores. One
source for the scorecard's help (a long OK on a box), the web page's rules panel and the
tables in docs/RULES.md (host_tests/test_box_help.py holds the three together).

Imported only when help opens and forgotten after (picoyacht.forget): frozen, these bytes
stay in flash. A box is a line b"needs|score"; each rule set lists its boxes' lines."""

from picoyacht.rules import NAME

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
    at = 0
    for _ in range(BOXES[rid][box]):
        at = _LINES.find(b"\n", at) + 1
    needs, _, scores = _LINES[at:_LINES.find(b"\n", at)].partition(b"|")
    return needs.decode(), scores.decode()


def upper_bonus_words(rs, options):
    """The upper bonus in words, as the game plays it."""
    return "Upper bonus: +%d at %d or more" % (rs.upper_bonus(options), rs.bonus_at)


def explain(app, game, code, then):
    """The help screen for a scorecard row (a box, else the upper bonus), over the card:
    OK calls then."""
    rs = game.rs
    if code < rs.nboxes:
        needs, scores = box_words(rs.id, code)
        lines = [rs.boxes[code][NAME] + ": " + needs + ";", "scores " + scores + "."]
    else:
        lines = [upper_bonus_words(rs, game.options) + "."]
    app.find("message").set("Box help", lines, app.keys("OK: back"), then)
    app.go("message")
