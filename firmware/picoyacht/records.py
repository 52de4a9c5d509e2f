"""The records screen: games played and the best per rule set, then a page per rule set
with its plays, average and top five, then Casino's wallets. Loaded when the title opens
it. A long OK offers to clear them: the way to free flash when a save fails for a full
flash."""

from picoyacht.buttons import B_OK
from picoyacht.rules import RULESETS
from picoyacht.saves import TOP, WALLETS
from picoyacht.screens import CELL, Pages, W, header

CLEAR = "Hold OK: clear"  # on every page: a long OK clears from any of them


class Records(Pages):
    """Plays and best of every rule set; then each rule set's page: plays, the average
    total (Casino: credits won) and the top five; then every wallet's credits. Each page
    says that a long OK clears them."""

    NAME = "records"

    def pages(self):
        return 2 + len(RULESETS)

    def long(self, btn):
        if btn == B_OK:
            app = self.app
            app.ask("Clear records?", ["Every play count,", "best score and wallet",
                                       "goes, freeing flash."], "Clear", self.clear)

    def clear(self, btn):
        app = self.app
        if btn == B_OK:
            app.records.clear()
            app.delete("records")
        app.show("records")

    def draw(self, cv):
        rec = self.app.records
        cv.clear()
        if self.page == 0:
            header(cv, self.app.keys(CLEAR), -1, 0, self.pages())
            cv.text("game", 0, 8)
            cv.text("plays", 60, 8)
            cv.text("best", 104, 8)
            for r in range(len(RULESETS)):
                y = (r + 2) * 8
                cv.text(RULESETS[r].name, 0, y, 1, 10)
                cv.rnum(rec.games(r), 90, y)
                cv.rnum(rec.best(r), W, y)
            return
        if self.page > len(RULESETS):
            self._wallets(cv)
            return
        r = self.page - 1
        rs = RULESETS[r]
        header(cv, rs.name, -1, self.page, self.pages())
        x = cv.text("plays ", 0, 8)
        cv.num(rec.games(r), x, 8)
        avg = rec.average_tenths(r)
        if avg >= 0:
            x = cv.text("avg ", 72, 8)
            x = cv.num(avg // 10, x, 8)
            cv.glyph(46, x, 8)  # "."
            cv.num(avg % 10, x + CELL, 8)
        cv.text(self.app.keys(CLEAR), 0, 16)
        # Casino's scores are credits won: "won" is what fits beside the hint
        cv.rtext("won" if rs.casino else "total", W, 16)
        for i in range(TOP):
            y = 24 + i * 8
            score = rec.score(r, i)
            cv.num(i + 1, 0, y)
            if score < 0:
                cv.glyph(45, 12, y)  # "-": no score yet
                continue
            pos, n = rec.name_at(r, i)
            data = rec.data
            for k in range(n):  # the name's bytes: no string made
                cv.glyph(data[pos + k], 12 + k * CELL, y)
            cv.rnum(score, W, y)

    def _wallets(self, cv):
        """Each player's Casino credits, the latest players first."""
        rec = self.app.records
        header(cv, "Wallet credits", -1, self.page, self.pages())
        cv.text(self.app.keys(CLEAR), 0, 8)
        if not rec.wallet(0)[2]:
            cv.text("Casino games open", 0, 16)
            cv.text("one for each player.", 0, 24)
            return
        data = rec.data
        for i in range(WALLETS):
            credits, pos, n = rec.wallet(i)
            y = 16 + i * 8
            for k in range(n):  # the name's bytes: no string made
                cv.glyph(data[pos + k], k * CELL, y)
            if n:
                cv.rnum(credits, W, y)


SCREENS = (Records,)  # what App.find opens by NAME
