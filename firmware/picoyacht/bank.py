"""The bank's word before a Casino game's first turn, when it filled a wallet short of the
bet (saves.Records.open): whose, and to how much. Shown once, as the game starts; any key
goes on to the first turn."""

from picoyacht.buttons import B_MENU
from picoyacht.menus import wrap
from picoyacht.saves import WALLET_START
from picoyacht.screens import Screen, W, header


class Bank(Screen):
    NAME = "bank"
    lines = ()

    def __init__(self, app):
        Screen.__init__(self, app)
        self.prompt = app.keys("OK: first turn")

    def enter(self):
        g = self.turn.game
        filled = self.app.records.open(g)  # (it only reads: the wallets move at the end)
        who = ", ".join([g.names[s] for s in range(g.nseats) if filled >> s & 1])
        self.lines = wrap([who + ": short of the bet, so the bank fills the wallet to "
                           + str(WALLET_START) + " credits."], W // 6)

    def key(self, btn):
        if btn == B_MENU:
            self.app.go("menu")
        else:
            self.app.show("handover" if self.turn.game.nseats > 1 else "play")

    def draw(self, cv):
        cv.clear()
        header(cv, "Bank")
        for i in range(min(len(self.lines), 5)):
            cv.text(self.lines[i], 1, 10 + i * 8)
        cv.text(self.prompt, 1, 56, 1, W // 6)


SCREENS = (Bank,)  # what App.find opens by NAME
