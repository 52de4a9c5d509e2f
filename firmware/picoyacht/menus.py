"""The title, the in-game menu and the message box: the small screens always at hand."""

from micropython import const

from picoyacht import font
from picoyacht.buttons import B_DOWN, B_MENU, B_OK, B_ROLL, B_UP
from picoyacht.game import HUMAN
from picoyacht.screens import Choice, Screen, game_summary, header, menu_list, starting

# Title item codes.
T_RESUME = const(0)
T_NEW = const(1)
T_RECORDS = const(2)
T_DEMO = const(3)
# Menu item codes.
_M_BACK = const(0)
M_SCORES = const(1)
M_UNDO = const(2)
_M_HINT = const(3)
_M_QUIT = const(4)
_M_STOP = const(5)
_M_OFF = const(6)
_M_AGAIN = const(7)
_M_RESULTS = const(8)
_COLS = const(21)
_ROWS = const(5)  # a message's lines above its hint


# The menu's item codes when it offers undo (bit 0 of the index) and a hint (bit 1), in a
# demo (bit 2): literals, so that opening the menu allocates nothing.
_MENU_ITEMS = (
    b"\x00\x01\x04\x06",  # Back, Scores, Quit, Power off
    b"\x00\x01\x02\x04\x06",  # Back, Scores, Undo, Quit, Power off
    b"\x00\x01\x03\x04\x06",  # Back, Scores, Hint, Quit, Power off
    b"\x00\x01\x02\x03\x04\x06",  # Back, Scores, Undo, Hint, Quit, Power off
    b"\x00\x01\x05\x06",  # Back, Scores, Stop, Power off
    b"\x00\x01\x02\x05\x06",  # Back, Scores, Undo, Stop, Power off
    b"\x00\x01\x03\x05\x06",  # Back, Scores, Hint, Stop, Power off
    b"\x00\x01\x02\x03\x05\x06",  # Back, Scores, Undo, Hint, Stop, Power off
)
_OVER_ITEMS = b"\x08\x07\x01\x04\x06"  # Back to results, Play again, Scores, Quit, Power off
_DEMO_OVER_ITEMS = b"\x08\x01\x05\x06"  # Back to results, Scores, Stop, Power off


class Title(Choice):
    NAME = "title"
    NEXT = "setup"
    LABELS = ("Resume game", "New game", "Records", "Demo (all CPU)")

    def enter(self):
        t = self.turn
        if t.demo:  # a demo ends at the title, however it got here
            t.quit()
        items = bytearray()
        if t.resumable():
            items.append(T_RESUME)
        items.append(T_NEW)
        items.append(T_RECORDS)
        items.append(T_DEMO)
        self.items = items
        self.sel = 0
        self.app.note("")

    def pick(self, code):
        app = self.app
        if code == T_RESUME:  # the game comes in over the next passes, as with setup's Start
            self.turn.start_soon(self.turn.resume)
        elif code == T_NEW:
            self.new_game()
        elif code == T_RECORDS:
            app.go("records")
        elif code == T_DEMO:
            self.turn.start_soon(self.turn.start_demo)

    def new_game(self):
        """Setup for a new game; first, where its Start would replace a game to resume,
        the question whose answer is Keep unless the player moves to New game."""
        app = self.app
        if self.turn.resumable():
            app.ask("Replace game?", game_summary(self.turn.game), "New game", self._new_or_keep)
        else:
            app.go("setup")

    def _new_or_keep(self, btn):
        """The answer to "Replace game?": Keep (B_MENU) keeps it, at the title."""
        app = self.app
        app.home()
        if btn != B_MENU:
            app.go("setup")

    def draw(self, cv):
        cv.clear()
        cv.die(2, 1, 5, False)
        cv.die(109, 1, 6, True)
        cv.big("PicoYacht", 22, 2, 1)
        cv.text("dice games", 34, 11)
        menu_list(cv, self.sel, self.LABELS, self.items, 3)
        cv.text(starting(self) or self.app.save_state.what(), 0, 56)  # a failed save, below


class Menu(Choice):
    """Opened over the play, hand-over or game over screen; Back returns there. At game
    over it offers to play again, with the same seats."""

    NAME = "menu"
    NEXT = "scores"
    LABELS = ("Back to game", "All scores", "Undo last box", "Hint", "Quit to title",
              "Stop demo", "Power off", "Play again", "Back to results")

    def enter(self):
        t = self.turn
        g = t.game
        self.sel = 0
        if g.over:
            self.items = _DEMO_OVER_ITEMS if t.demo else _OVER_ITEMS
            return
        s = t.last_scorer  # undo is offered for a human's last box, in a real game
        undo = g.can_undo and not t.demo and s >= 0 and g.kinds[s] == HUMAN
        hint = t.coach.level and g.kinds[g.current] == HUMAN and g.rolls_used
        self.items = _MENU_ITEMS[(1 if undo else 0) | (2 if hint else 0) | (4 if t.demo else 0)]

    def pick(self, code):
        app = self.app
        if code == _M_BACK or code == _M_RESULTS or code < 0:
            self.turn.coach.wait(app.now)
            app.back()
        elif code == M_SCORES:
            app.go("scores")
        elif code == M_UNDO:
            undone = self.turn.undo()
            play = app.show("play")  # (after the undo: the play screen sees the turn go back)
            if undone:
                play.undone()
        elif code == _M_HINT:
            app.show("play").hint()
        elif code == _M_AGAIN:  # the results leave the heap, then the game comes in
            self.turn.start_soon(self.turn.play_again)
        elif code == _M_OFF:
            app.back()  # the game's screen, as the wake will find it
            app.power_off()
        elif code == _M_QUIT or code == _M_STOP:
            self.turn.quit()
            app.home()

    def draw(self, cv):
        cv.clear()
        header(cv, "Menu")
        menu_list(cv, self.sel, self.LABELS, self.items)
        saves = self.app.save_state  # what failed and what to do, below the items
        cv.text(saves.what(), 0, 48)
        cv.text(starting(self) or saves.todo(), 0, 56)


_ANSWERS = b"\x00\x01"  # a question's rows: keep, then the act


class Message(Screen):
    """A titled note; OK, Menu or Roll calls then(btn), or goes to the title. A note longer
    than the screen scrolls with Up and Down, an arrow showing there is more.

    As a question (answers: ("Keep", the act)), Keep is chosen when it opens and Up or
    Down moves between the two: OK, Roll or Menu on Keep calls then(B_MENU), OK or Roll on
    the act then(B_OK). So no single key, however stray, gives the act."""

    NAME = "message"
    title = ""
    lines = ()
    hint = ""
    then = None
    top = 0  # the first line shown
    answers = None
    sel = 0

    def set(self, title, lines, hint, then, answers=None):
        self.title = title
        self.lines = wrap(lines, _COLS)
        if len(self.lines) > _ROWS:  # the last column is the scroll arrows'
            self.lines = wrap(lines, _COLS - 1)
        self.hint = hint
        self.then = then
        self.top = 0
        self.answers = answers
        self.sel = 0

    def key(self, btn):
        if self.answers is not None:
            if btn == B_UP or btn == B_DOWN:
                self.sel ^= 1
                return
            if btn == B_OK or btn == B_ROLL:
                btn = B_OK if self.sel else B_MENU
        elif btn == B_UP or btn == B_DOWN:
            top = self.top + (1 if btn == B_DOWN else -1)
            if 0 <= top <= len(self.lines) - _ROWS:
                self.top = top
            return
        if btn != B_OK and btn != B_MENU and btn != B_ROLL:
            return
        then = self.then
        self.then = None
        if then is None:
            self.app.home()
        else:
            then(btn)

    def draw(self, cv):
        cv.clear()
        header(cv, self.title)
        lines = self.lines
        top = self.top
        rows = _ROWS if self.answers is None else 3  # a question's answers take rows 5 and 6
        for i in range(rows):  # a sixth line would run into the hint
            if top + i >= len(lines):
                break
            cv.text(lines[top + i], 1, 10 + i * 8, 1, _COLS)
        if self.answers is not None:  # Up and Down choose the answer: nothing scrolls
            menu_list(cv, self.sel, self.answers, _ANSWERS, 5)
            rows = len(lines)
        if top > 0:
            cv.glyph(font.UP, 122, 10)
        if top + rows < len(lines):
            cv.glyph(font.DOWN, 122, 42)
        cv.text(starting(self) or self.hint, 1, 56, 1, _COLS)


def wrap(lines, width):
    """Break lines at spaces so a note fits the 21-column screen."""
    out = []
    for line in lines:
        while len(line) > width:
            cut = line.rfind(" ", 0, width + 1)
            if cut <= 0:
                cut = width
            out.append(line[:cut])
            line = line[cut:].lstrip()
        out.append(line)
    return out


SCREENS = (Title, Menu, Message)  # what App.find opens by NAME
