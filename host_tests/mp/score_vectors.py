"""Prints every box score for every multiset of every rule set, plus joker and Sharp Dice
previews, one line per rule set. Run on both interpreters; the outputs must match."""

from picoyacht import rules
from picoyacht.game import Game
from picoyacht.rules import RULESETS, Options, counts_of, evaluate

try:
    from ubinascii import hexlify
except ImportError:
    from binascii import hexlify


class Fixed:
    def __init__(self):
        self.faces = []

    def d6(self):
        return self.faces.pop(0)


def vectors(rs):
    out = bytearray()
    counts = bytearray(7)
    for c in rules.multisets(rs.ndice):
        for box in rs.boxes:
            s = evaluate(box, c)
            out.append(s + 1)  # -1 (unsatisfied) becomes 0
        dice = []
        for f in range(1, 7):
            dice.extend([f] * c[f])
        counts_of(dice, counts)
        assert bytes(counts) == bytes(c)
    return out


def game_previews(rid, opts, prefix_faces):
    """Previews of every box after a fixed history, for joker/Sharp Dice coverage."""
    out = bytearray()
    rs = RULESETS[rid]
    for c in rules.multisets(rs.ndice):
        roller = Fixed()
        g = Game(rid, ["A"], options=opts, roller=None)
        g.roller = roller
        for faces, box in prefix_faces:
            roller.faces = list(faces)
            g.roll()
            g.score(box)
        dice = []
        for f in range(1, 7):
            dice.extend([f] * c[f])
        roller.faces = dice
        g.roll()
        for b in range(rs.nboxes):
            out.append(g.preview(b))
            out.append(g.box_state(b))
        out.append(g.pending_yahtzee_bonus() // 100)
    return out


def main():
    for rs in RULESETS:
        print(rs.name, hexlify(vectors(rs)).decode())
    history = [([6] * 5, 11), ([2, 2, 2, 1, 1], 1)]
    for joker in range(3):
        for sharp in (False, True):
            opts = Options(joker=joker, sharp=sharp)
            print("joker", joker, sharp, hexlify(game_previews(0, opts, history)).decode())
    print("yatzy sharp", hexlify(game_previews(1, Options(sharp=True), [])).decode())


main()
