"""The records screen: games played and the best total per rule set, then who made it.
Loaded when the title opens it. A long OK offers to clear them: the way to free flash
when a save fails for a full flash."""

from picoyacht.buttons import B_OK
from picoyacht.rules import RULESETS
from picoyacht.screens import Pages, W, header


class Records(Pages):
    """Two pages: plays and best total per rule set, then who made each best."""

    NAME = "records"

    def pages(self):
        return 2

    def long(self, btn):
        if btn == B_OK:
            app = self.app
            app.message("Clear records?", ["Every play count and", "best score goes,",
                                           "freeing flash."],
                        app.keys("OK: clear  Menu: keep"), self.clear)

    def clear(self, btn):
        app = self.app
        if btn == B_OK:
            app.records.clear()
            if app.store is None or app.store.delete("records"):
                app.save_state.saved("records", True)
        app.show("records")

    def draw(self, cv):
        rec = self.app.records
        cv.clear()
        header(cv, "Records", -1, self.page, 2)
        if self.page == 0:
            cv.text("game", 0, 8)
            cv.text("plays", 60, 8)
            cv.text("best", 104, 8)
            for r in range(len(RULESETS)):
                y = (r + 2) * 8
                cv.text(RULESETS[r].name, 0, y, 1, 10)
                cv.rnum(rec.games[r], 90, y)
                cv.rnum(rec.best[r], W, y)
        else:
            cv.text("best by", 0, 8)
            for r in range(len(RULESETS)):
                y = (r + 2) * 8
                cv.text(RULESETS[r].name, 0, y, 1, 10)
                cv.text(rec.names[r] if rec.best[r] else "-", 66, y)


SCREENS = (Records,)  # what App.find opens by NAME
