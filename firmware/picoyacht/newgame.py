"""Setting up a new game: the rule set and options, the players, and a player's name.
Loaded when the title opens it; not needed during play."""

from micropython import const

from picoyacht import font, rules
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.cues import SOUND_SCORE, VOLUME_NAMES
from picoyacht.game import MAX_NAME
from picoyacht.rules import BETS, CPU_EXPERT, JOKER_NAMES, RULESETS
from picoyacht.saves import DEFAULT_NAMES
from picoyacht.screens import CELL, KIND_NAMES, Choice, Screen, W, header, starting

# Setup row codes.
R_RULES = const(0)
_R_JOKER = const(1)
R_SHARP = const(2)
_R_BET = const(3)
_R_SAVED = const(4)
_R_BONUS = const(5)
R_PLAYERS = const(6)
R_COACH = const(7)
R_START = const(8)
R_SOUND = const(9)
R_KIND = const(16)  # + seat
R_NAME = const(32)  # + seat
_PER_PAGE = const(5)  # setting rows per page; "Start game" is pinned under them, then help

LABELS = ("Game", "Joker", "Sharp dice", "Bet", "Saved rolls", "Upper bonus", "Players",
          "Coach", "Start game", "Sound")
ON_OFF = ("Off", "On")
COACH_NAMES = ("Off", "Hints", "Hints+tips")
NAME_CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"


class Setup(Choice):
    """One row per setting; OK steps a value forward, a long OK (or Roll) back, as the
    help row under the list says; Menu leaves. "Start game" is the last row, drawn under
    every page: Up from the first row reaches it in one press."""

    NAME = "setup"
    page = 0
    tabled = True  # Expert's table is there for the chosen rule set
    tabled_for = -1  # the rule set and options `tabled` answers (table_key)

    def __init__(self, app):
        Choice.__init__(self, app)
        # the help row for a value, a name and Start, in the build's key names
        self.helps = (app.keys("OK next  hold OK back"), app.keys("OK: edit the name"),
                      app.keys("OK: start  Menu: exit"))

    def enter(self):
        self.sel = 0
        self.page = 0
        self.tabled_for = -1  # the tables are looked for again each time setup opens
        self.refresh()

    def refresh(self):
        """The rows the chosen rule set and player count call for."""
        s = self.app.settings
        rs = RULESETS[s.rid]
        items = bytearray((R_RULES,))
        if rs.joker:
            items.append(_R_JOKER)
        if rs.sharp:
            items.append(R_SHARP)
        if rs.casino:
            items.append(_R_BET)
        if rs.saved_rolls:
            items.append(_R_SAVED)
        if rs.bonus_option:
            items.append(_R_BONUS)
        items.append(R_PLAYERS)
        for i in range(s.nplayers):
            items.append(R_KIND + i)
            items.append(R_NAME + i)
        items.append(R_COACH)
        items.append(R_SOUND)
        items.append(R_START)
        self.items = items
        key = table_key(s)
        if key != self.tabled_for:  # (on the .mpy layout each look is an import)
            for k in range(s.nplayers):
                if s.kinds[k] == CPU_EXPERT:
                    self.tabled = table_available(s)
                    self.tabled_for = key
                    break
        if self.sel >= len(items):
            self.sel = len(items) - 1

    def key(self, btn):
        if btn == B_ROLL:
            self.change(self.items[self.sel], -1)
        else:
            Choice.key(self, btn)

    def long(self, btn):
        """A held OK steps back: the press already stepped forward, so two back."""
        code = self.items[self.sel]
        if btn == B_OK and code < R_NAME and code != R_START:
            self.change(code, -2)
            self.app.redraw()

    def pick(self, code):
        if code < 0:  # Menu: the volume (heard at once) is kept even without a game
            app = self.app
            app.save("settings", app.settings.pack())
            app.home()
        else:
            self.change(code, 1)

    def change(self, code, d):
        app = self.app
        s = app.settings
        o = s.options
        if code == R_RULES:
            s.rid = (s.rid + d) % rules.COUNT
        elif code == _R_JOKER:
            o.joker = (o.joker + d) % 3
        elif code == R_SHARP:
            o.sharp = (o.sharp + d) % 2 == 1
        elif code == _R_BET:
            i = BETS.index(o.bet) if o.bet in BETS else 1
            o.bet = BETS[(i + d) % len(BETS)]
        elif code == _R_SAVED:
            o.saved_rolls = (o.saved_rolls + d) % 2 == 1
        elif code == _R_BONUS:
            o.bonus100 = (o.bonus100 + d) % 2 == 1
        elif code == R_PLAYERS:
            s.nplayers = (s.nplayers - 1 + d) % 6 + 1
        elif code == R_COACH:
            s.coach = (s.coach + d) % 3
        elif code == R_SOUND:
            app.set_volume((s.volume + d) % len(VOLUME_NAMES))
            app.sound(SOUND_SCORE)  # hear the new level
        elif code == R_START:
            self.turn.start_soon()
            return
        elif code >= R_NAME:
            app.go("name").edit_seat(code - R_NAME)
            return
        elif code >= R_KIND:
            k = code - R_KIND
            s.kinds[k] = (s.kinds[k] + d) % 4
        self.refresh()

    def draw(self, cv):
        cv.clear()
        items = self.items
        last = len(items) - 1  # Start: under every page
        if self.sel < last:
            self.page = self.sel // _PER_PAGE
        elif self.page * _PER_PAGE >= last:
            self.page = 0
        title = "No table" if self.untabled(items[self.sel]) else "New game"
        header(cv, title, -1, self.page, (last + _PER_PAGE - 1) // _PER_PAGE)
        top = self.page * _PER_PAGE
        for r in range(_PER_PAGE + 1):
            i = top + r
            if r == _PER_PAGE or i >= last:
                i = last
                r = _PER_PAGE
            y = (r + 1) * 8
            c = 1
            if i == self.sel:
                cv.tab(r + 1, 2 * CELL + 1 if self.untabled(items[i]) else label_w(items[i]))
                c = 0
            self.draw_row(cv, items[i], y, c)
            if i == last:
                break
        code = items[self.sel]
        helps = self.helps[2 if code == R_START else 1 if code >= R_NAME else 0]
        cv.text(starting(self) or helps, 1, 56)

    def draw_row(self, cv, code, y, c):
        """One row: the label in colour c (0 inside the selection box), the value."""
        s = self.app.settings
        o = s.options
        if code >= R_KIND:
            seat = code & 15
            x = cv.text("P", 1, y, c)
            x = cv.num(seat + 1, x, y, c)
            if self.untabled(code):  # the header says "No table" while this row is chosen
                cv.rtext("Expert: estimate", W, y)
            elif code >= R_NAME:
                cv.text(" name", x, y, c)
                cv.rtext(s.names[seat], W, y)
            else:
                cv.text(" plays", x, y, c)
                cv.rtext(KIND_NAMES[s.kinds[seat]], W, y)
            return
        if code == R_START:
            cv.glyph(font.RIGHT, 1, y, c)
            cv.text(LABELS[code], 9, y, c)
            return
        cv.text(LABELS[code], 1, y, c)
        if code == R_RULES:
            cv.rtext(RULESETS[s.rid].name, W, y)
        elif code == _R_JOKER:
            cv.rtext(JOKER_NAMES[o.joker], W, y)
        elif code == R_SHARP:
            cv.rtext(ON_OFF[o.sharp], W, y)
        elif code == _R_BET:
            cv.rnum(o.bet, W, y)
        elif code == _R_SAVED:
            cv.rtext(ON_OFF[o.saved_rolls], W, y)
        elif code == _R_BONUS:
            cv.rnum(100 if o.bonus100 else 50, W, y)
        elif code == R_PLAYERS:
            cv.rnum(s.nplayers, W, y)
        elif code == R_COACH:
            cv.rtext(COACH_NAMES[s.coach], W, y)
        elif code == R_SOUND:
            cv.rtext(VOLUME_NAMES[s.volume], W, y)


    def untabled(self, code):
        """True for the row of an Expert seat with no table for these rules: it plays by
        Normal's estimate."""
        s = self.app.settings
        return (R_KIND <= code < R_NAME and s.kinds[code - R_KIND] == CPU_EXPERT
                and not self.tabled)


def table_key(s):
    """A small int naming what picks Expert's table: the rule set, joker rule and Sharp
    Dice. A press that changes none of them (players, names, coach) looks for no table."""
    o = s.options
    return (s.rid * 4 + o.joker) * 2 + (1 if RULESETS[s.rid].sharp and o.sharp else 0)


def table_available(s):
    """strategy_table.available for the settings' rule set and options. Its module is
    forgotten again unless a game holds it: setup must not keep it, and a game imports it
    in a loop pass of its own."""
    import sys

    from picoyacht.heap import forget

    held = "picoyacht.strategy_table" in sys.modules
    from picoyacht import strategy_table

    o = s.options
    there = strategy_table.available(s.rid, o.joker, RULESETS[s.rid].sharp and o.sharp)
    if not held:
        forget("strategy_table")
    return there


def label_w(code):
    """Width of the selection box over a setup row's label, as Setup.draw_row draws it."""
    if code >= R_KIND:
        return (7 if code >= R_NAME else 8) * CELL + 1  # "P1 name" / "P1 plays"
    return len(LABELS[code]) * CELL + (9 if code == R_START else 1)


class Name(Screen):
    """A player's name, letter by letter: Up/Down change it, OK moves on, Menu (or a long
    OK) is done."""

    NAME = "name"
    seat = 0
    edit = ""
    pos = 0

    def __init__(self, app):
        Screen.__init__(self, app)
        self.prompts = (app.keys("Up/Dn letter OK next"), app.keys("Menu or hold OK: done"))

    def edit_seat(self, seat):
        self.seat = seat
        self.edit = self.app.settings.names[seat]
        self.pos = 0

    def key(self, btn):
        e = self.edit
        p = self.pos
        if btn == B_UP or btn == B_DOWN:
            ch = e[p] if p < len(e) else " "
            i = NAME_CHARS.find(ch)
            i = (i + (1 if btn == B_UP else -1)) % len(NAME_CHARS)
            self.edit = e[:p] + NAME_CHARS[i] + e[p + 1:]
        elif btn == B_OK:
            if p < MAX_NAME - 1:
                self.pos = p + 1
                if self.pos >= len(e):
                    self.edit = e + " " if len(e) < MAX_NAME else e
            else:
                self.done()
        elif btn == B_MENU:
            self.done()

    def long(self, btn):
        if btn == B_OK:
            self.done()

    def done(self):
        name = self.edit.strip()
        self.app.settings.names[self.seat] = name or DEFAULT_NAMES[self.seat]
        self.app.back()

    def draw(self, cv):
        cv.clear()
        header(cv, "Player name")
        cv.text("Player", 1, 12)
        cv.num(self.seat + 1, 44, 12)
        name = self.edit
        x = 10
        for i in range(len(name)):
            if i == self.pos:
                cv.fb.fill_rect(x - 1, 24, 14, 18, 1)
                cv.big(name[i], x, 26, 2, 0)
            else:
                cv.big(name[i], x, 26, 2, 1)
            x += 14
        cv.text(self.prompts[0], 1, 48)
        cv.text(self.prompts[1], 1, 56)


SCREENS = (Setup, Name)  # what App.find opens by NAME
