"""What a player reads for a box or a card row: the full name wherever it fits, and a
short form in words (never a two-letter code) where the row is too narrow.

Every form is a literal returned as it is, so drawing a label allocates nothing; the
if-chains are code, which stays in flash when frozen, not a table alive in the heap.
"""

from micropython import const

SHORT_MAX = const(7)  # no short form is longer: every row that names a box keeps this room
NOTE = const(21)  # characters of the status note (screens.Note)


def short_name(name):
    """The short form of a box's full name (the name itself when it is short already)."""
    if len(name) <= SHORT_MAX:
        return name
    if name == "Three of a kind":
        return "3 kind"
    if name == "Four of a kind":
        return "4 kind"
    if name == "Five of a kind":
        return "5 kind"
    if name == "Full house":
        return "F house"
    if name == "Small straight":
        return "Sm str"
    if name == "Large straight":
        return "Lg str"
    if name == "Full straight" or name == "Straight":
        return "Str 1-6"
    if name == "One pair":
        return "1 pair"
    if name == "Two pairs":
        return "2 pairs"
    if name == "Three pairs":
        return "3 pairs"
    if name == "Two triplets":
        return "2 trips"
    if name == "Villa 2x3":
        return "Villa"
    if name == "Tower 4+2":
        return "Tower"
    if name == "Maxi Yatzy":
        return "Yatzy"
    if name == "Small Yahtzee":
        return "5 alike"
    return name[:SHORT_MAX]  # a name this list misses: cut, never wider than promised


def fit(name, room):
    """name when it has room (characters), else its short form."""
    return name if len(name) <= room else short_name(name)


def row_label(row, room):
    """A card row's label in room characters; row counts from screens.ROW_UPPER: the
    upper total, the upper bonus, the Yahtzee bonus, the Casino wallet, the total."""
    if row == 0:
        return "Upper total" if room >= 11 else "Upper"
    if row == 1:
        return "Upper bonus" if room >= 11 else "Bonus"
    if row == 2:
        return "Yahtzee bonus" if room >= 13 else "Y bonus"
    if row == 3:  # the seat's credits: screens.row_sum
        return "Wallet"
    return "Total"


def take_words(name, pts):
    """The move "Take Four of a kind 22" in NOTE characters: with the full name, then
    without "Take", then with the short form."""
    tail = " " + pts
    text = "Take " + name + tail
    if len(text) <= NOTE:
        return text
    if len(name) + len(tail) <= NOTE:
        return name + tail
    return "Take " + short_name(name) + tail
