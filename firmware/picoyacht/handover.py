"""Between turns: whose turn comes next, and what the last box gave."""

from picoyacht.buttons import B_MENU, B_ROLL
from picoyacht.coach import CPU_HANDOVER_MS
from picoyacht.cues import NOTE_KEY
from picoyacht.game import HUMAN
from picoyacht.labels import fit
from picoyacht.rules import CPU_EXPERT, NAME
from picoyacht.screens import CELL, KIND_NAMES, Screen, W, header, ndigits
from picoyacht.ticks import ticks_diff


class Handover(Screen):
    """Between turns: who plays next and what the last box gave. It waits for a key only
    where the handheld changes hands, from one human to another; otherwise (a CPU seat,
    or the one human's turn coming back) it goes on by itself after CPU_HANDOVER_MS,
    unless it shows a coach's tip on a human's box: that stays until a key. The one
    human then finds the last CPU box on the play screen, until a key. The first turn of
    a game with drawn seats says who starts."""

    NAME = "handover"
    at = 0
    alone = False  # one human seat at most: no hands to change
    drawn_exact = True  # the frame named an Expert seat as playing exactly

    def __init__(self, app):
        Screen.__init__(self, app)
        self.start_key = app.keys("OK: start turn")

    def enter(self):
        self.at = self.app.now
        kinds = self.turn.game.kinds
        humans = 0
        for i in range(len(kinds)):
            if kinds[i] == HUMAN:
                humans += 1
        self.alone = humans < 2

    def key(self, btn):
        app = self.app
        g = self.turn.game
        if btn == B_MENU:
            app.go("menu")
            return
        play = app.show("play")
        self.turn.heard()
        if btn == B_ROLL and g.kinds[g.current] == HUMAN:
            play.roll()

    def tick(self, now):
        app = self.app
        t = self.turn
        g = t.game
        s = t.last_scorer  # a coach's word on a human's last box waits for a key
        cpu = g.kinds[g.current] != HUMAN
        # Expert's table, loaded in a pass that draws nothing; then the frame says whether
        # that seat plays exactly or by the estimate
        if g.kinds[g.current] == CPU_EXPERT and not app.dirty:
            if t.coach.exact(g, False) != self.drawn_exact:
                app.redraw()
            else:
                t.coach.exact(g)
        if ((cpu or self.alone) and ticks_diff(now, self.at) >= CPU_HANDOVER_MS
                and not (t.coach_line and s >= 0 and g.kinds[s] == HUMAN)):
            app.show("play")
            app.stay_awake(now)
            if not cpu and t.last_box >= 0:  # the CPU's box, until the human's first key
                name = g.names[t.last_seat] + ": "
                box = g.rs.boxes[t.last_box][NAME]
                app.note(name + box[:20 - len(name) - ndigits(t.last_pts)], t.last_pts,
                         NOTE_KEY)

    def draw(self, cv):
        t = self.turn
        g = t.game
        cv.clear()
        first = g.turn == 0
        header(cv, "First turn" if first else "Next turn")
        seat = g.current
        name = g.names[seat]
        cv.big(name, (W - len(name) * 12) >> 1, 10, 2)
        tip = t.coach_line  # two rows: the rows above it move up to make room
        y = 32 if tip else 40  # the last box's row
        kind = g.kinds[seat]  # an Expert with no table for these rules says so
        words = KIND_NAMES[kind]
        self.drawn_exact = t.coach.exact(g, False)
        if kind == CPU_EXPERT and not self.drawn_exact:
            words = "Expert: estimate"
        cv.ctext(words, y - 8 if tip else 28)
        if first and (g.rs.random_seating or g.rs.rolloff):
            cv.text("drawn to go first" if g.rs.random_seating else "won the roll-off", 1, 40)
            x = cv.text("then", 1, 48)
            for i in range(1, g.nseats):  # the seating order, as far as the line goes
                other = g.names[g.order[i]]
                if x + (len(other) + 1) * CELL > W:
                    cv.text("..", x, 48)
                    break
                x = cv.text(other, x + CELL, 48)
        elif t.last_box >= 0:  # "Ann: Chance 23": a long box name is shortened, not cut
            x = cv.text(g.names[t.last_seat], 1, y)
            x = cv.text(": ", x, y)
            pts = t.last_pts
            room = 21 - (x - 1) // CELL - 1 - ndigits(pts)
            x = cv.text(fit(g.rs.boxes[t.last_box][NAME], room), x, y)
            cv.num(pts, x + CELL, y)
        if tip:
            cv.line(tip, 0, 1, 40)
            cv.line(tip, 1, 1, 48)
        if g.kinds[seat] or self.alone:
            cv.text("any key: go", 1, 56)
        else:
            cv.text(self.start_key, 1, 56)


SCREENS = (Handover,)  # what App.find opens by NAME
