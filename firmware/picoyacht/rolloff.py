"""Before a game's first turn, shown once as it starts; any key goes on to the first turn.
Deluxe's roll-off: what each player threw (the total of all six dice), a tie's throws
again, and who starts. Casino's bank, when it filled a wallet short of the bet
(saves.Records.open): whose, and to how much."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU
from picoyacht.menus import wrap
from picoyacht.screens import Screen, W, header

_COL_W = const(64)  # two throws a row: a mark, a name, the total
_NAME = const(7)  # characters of a name: its total keeps a gap
_LAST_ROW = const(48)  # the bottom row is the prompt


class RollOff(Screen):
    NAME = "rolloff"

    def __init__(self, app):
        Screen.__init__(self, app)
        self.prompt = app.keys("OK: first turn")

    def key(self, btn):
        if btn == B_MENU:
            self.app.go("menu")
        else:
            self.app.show("handover" if self.turn.game.nseats > 1 else "play")

    def draw(self, cv):
        g = self.turn.game
        cv.clear()
        header(cv, "Roll-off")
        cv.text("Highest throw starts", 1, 8)
        y = 16
        for r in range(len(g.rolloff)):
            throws = g.rolloff[r]
            if r and y <= _LAST_ROW:
                cv.text("Tie: they throw again", 1, y)
                y += 8
            best = 0
            for i in range(len(throws)):
                if throws[i][1] > best:
                    best = throws[i][1]
            for i in range(len(throws)):
                if y > _LAST_ROW:
                    break
                seat, total = throws[i]
                x = (i & 1) * _COL_W
                if total == best:
                    cv.glyph(font.RIGHT, x, y)
                cv.text(g.names[seat], x + 6, y, 1, _NAME)
                cv.rnum(total, x + _COL_W - 2, y)
                if i & 1 or i == len(throws) - 1:
                    y += 8
        cv.text(self.prompt, 1, 56, 1, W // 6)


class Bank(RollOff):
    NAME = "bank"
    lines = ()

    def enter(self):
        g = self.turn.game
        rec = self.app.records
        filled = rec.open(g)  # (it only reads: the wallets move at the end)
        seats = [s for s in range(g.nseats) if filled >> s & 1]
        who = ", ".join([g.names[s] for s in seats])
        self.lines = wrap([who + ": short of the bet, so the bank fills the wallet to "
                           + str(rec.opening(seats[0])) + " credits."], W // 6) if seats else ()

    def draw(self, cv):
        cv.clear()
        header(cv, "Bank")
        for i in range(min(len(self.lines), 5)):
            cv.text(self.lines[i], 1, 10 + i * 8)
        cv.text(self.prompt, 1, 56, 1, W // 6)


SCREENS = (RollOff, Bank)  # what App.find opens by NAME
