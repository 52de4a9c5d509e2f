"""Deluxe's roll-off before the first turn: what each player threw (the total of all six
dice), a tie's throws again, and who starts. Shown once, when a game with a human starts;
any key goes on to the first hand-over."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_MENU
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
            self.app.show("handover")

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


SCREENS = (RollOff,)  # what App.find opens by NAME
