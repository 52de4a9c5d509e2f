"""The turn's flow: one game from its start (or resume) to its end, and what each move does.

Turn owns the game, its seed, the coach and CPU seats, and the work a move leaves for later
(its log line and its save, split over loop passes by heap.sweep: after_move). Screens call
it and draw what it holds; its methods return the screen to show next, or a result, and App
shows that screen. Nothing here draws or reads a button: the session (App) gives it the
saves, the log, the notes and the sound.

Scoring goes one way: a screen calls score(box), the game scores it, and the name of the
next screen comes back (hand-over or play) for App.show. The last box is drawn like any
other; the game's end (the records, the save's delete) then takes the save's passes, and App
shows the results once it is on flash (`ending`).
"""

from micropython import const

from picoyacht import heap
from picoyacht.cues import (
    NOTE_KEY,
    NOTE_MOVE,
    SOUND_GAME_OVER,
    SOUND_HOLD,
    SOUND_SCORE,
    SOUND_SCRATCH,
    SOUND_YAHTZEE,
)
from picoyacht.game import HUMAN, Game, RuleError, copy_into
from picoyacht.policy import A_HOLD, A_ROLL, A_SCORE, can_roll
from picoyacht.roller import Roller, seed_from_entropy
from picoyacht.rules import NAME, YAHTZEE, Options

# Turn.ending, after the last box: the records' save and the game's delete go through
# after_move's passes like a move's save, then App brings the results in, their module in a
# pass of its own, their frame in the next (App.tick); a key meanwhile is spent (App.event).
PLAYING = const(0)
END_SAVING = const(1)  # the end is still to put on flash
END_LOADING = const(2)  # going on flash (saving) or on it: the results' module comes in next
END_SHOWING = const(3)  # the module is in: the results come up next

# Turn.starting, from the key that starts a game to the game's first frame, a quiet pass a
# step: the key's screen leaves the heap (App.tick); for setup's Start, the settings' save
# goes through after_move's passes like a move's save; then App brings the game's modules
# in one by one, and the game and its frame. A key meanwhile is spent (App.event).
START_DROPPING = const(1)  # the key's screen leaves the heap next
START_SAVING = const(2)  # the settings are still to put on flash
START_LOADING = const(3)  # on flash, or tried; and up: App's next module of the game comes in
DEMO_SEATS = const(3)  # the demo's: Easy, Normal and Expert (start_demo)

_PLAIN = "Low mem: "  # a hint or CPU step made without the search (out of heap)


class Turn:
    """One game's flow. `app` is the session: settings, records, saves, log, notes, sound."""

    def __init__(self, app, urandom, now_ms):
        self.app = app
        self.game = None
        self.demo = False
        self.parked = None  # the game to resume, aside while a demo plays
        self.coach = None  # made with the first game (adopt): the title comes up without it
        self.roller = Roller(seed_from_entropy(urandom or _no_entropy, now_ms))  # new seeds
        self.starting = 0  # a game's start, in passes: START_*
        self.begins = None  # the game it ends in: start_soon
        # The last box scored, for the hand-over ("Ann: Chance 23"; box -1: none) and its
        # log line (written after its frame), kept without a tuple so scoring allocates nothing
        self.last_seat = self.last_box = self.last_pts = -1
        self.last_scorer = -1  # the seat whose box undo may take back, or -1
        self.coach_line = ""  # the coach's word on the last box, for the hand-over
        self.new_best = False  # the game just over set a record
        self.saving = heap.IDLE  # the game's save, split over passes (heap.sweep): after_move
        self.ending = PLAYING  # the game's end, after its last box (END_SAVING ...)
        self._log_due = False  # the last box's log line is still to write
        self._log_bonus = 0
        self._log_dice = bytearray(0)  # sized to the game's dice: adopt()

    # ---------------------------------------------------------------- starting
    def restore(self, data):
        """A saved game from its payload (Game.restore's checks), for the boot's load."""
        return Game.restore(data, Roller(1))

    def adopt(self, game, level):
        """Take over a game, new or resumed at boot, with the coach at level."""
        self.game = game
        if self.coach is None:
            from picoyacht.coach import Coach
            self.coach = Coach(self.app.log)
        self.coach.start(game, level)
        self.ending = PLAYING
        self.app.note("")
        self.last_scorer = -1
        self._log_dice = bytearray(len(game.dice))

    def resume(self):
        """Back to the game left for the title: its screen."""
        g = self.game
        self.demo = False
        heap.collect_often(False)  # a game again: the loop's sweeps collect (Coach.start)
        self.app.records.open(g)  # the records may have been cleared at the title
        self.coach.level = self.app.settings.coach
        if g.rolls_used == 0 and g.nseats > 1:
            self.last_box, self.coach_line = -1, ""
            return "handover"
        return "play"

    def resumable(self):
        """A game to resume is here (and saved): a new game or a demo must not lose it."""
        g = self.game
        return g is not None and not g.over and not self.demo

    def start_soon(self, begins=None):
        """A game begins in the passes after its key (`starting`), so that no pass holds the
        key's screen leaving, the settings' save (setup's Start), and the game's modules and
        frame. begins: the method that begins it at the end (play_again, start_demo or
        resume); None: setup's Start (start, the settings saved first). The key's pass
        draws its answer: "Starting the game..." (screens.starting)."""
        self.starting = START_DROPPING
        self.begins = begins
        self.app.redraw()

    def start(self, saved=False):
        """A new game from the settings; its first screen. The settings are saved first,
        unless the start's passes have put them on flash (saved)."""
        s = self.app.settings
        if not saved:
            self.app.save("settings", s.pack())
        from picoyacht import snapshot  # noqa: F401  (loaded here, not in the first save's pass)
        n = s.nplayers
        return self._begin(s.rid, s.names[:n], s.kinds[:n], s.options_copy(), s.coach, False)

    def play_again(self):
        """A new game with the finished one's rule set, options and seats; its first screen."""
        old = self.game
        return self._begin(old.rs, old.names, old.kinds, Options.unpack(*old.options.pack()),
                           self.app.settings.coach, False)

    def start_demo(self):
        """The all-CPU demo, which never replaces a game to resume: it waits aside."""
        if self.resumable():
            self.parked = self.game
        return self._begin(YAHTZEE, ["Easy", "Normal", "Expert"], bytearray((1, 2, 3)),
                           Options(), 0, True)

    def quit(self):
        """To the title: a demo ends; a game stays, saved with its holds, to resume."""
        heap.collect_often(True)  # between games again
        if self.demo:
            self.game = None
            self.demo = False
            g = self.parked
            self.parked = None
            if g is not None:
                self.adopt(g, self.app.settings.coach)
        elif self.resumable():
            self.saving = heap.DUE

    def _new_seed(self):
        r = self.roller
        return (r.rand15() << 15) | r.rand15()

    def _begin(self, rules, names, kinds, options, level, demo):
        """A new game on a new seed, taken over with the coach at level; its first screen."""
        seed = self._new_seed()
        g = Game(rules, names, kinds, options, Roller(seed), seed)
        self.demo = demo
        self.adopt(g, level)
        self.last_box, self.coach_line = -1, ""
        from picoyacht import gamelog  # (loaded with the first game, not at boot)
        self.app.log(gamelog.start_line(g))
        self.saving = heap.DUE
        if g.rolloff:  # Deluxe: who threw what, when a human is there to read it
            for kind in g.kinds:
                if kind == HUMAN:
                    return "rolloff"
        if self.app.records.open(g):  # a wallet short of the bet: the bank fills it
            return "bank"
        return "handover" if g.nseats > 1 else "play"

    # ---------------------------------------------------------------- a human's moves
    def hold(self, i):
        """Toggle die i's hold; False (with a note) before the first roll."""
        app = self.app
        g = self.game
        if not g.rolls_used:
            app.note("Roll first")
            return False
        g.held ^= 1 << i
        if app.status.text:  # (a call less in the common case: a hold's pass is short)
            app.note("")
        app.sound(SOUND_HOLD)
        return True

    def roll(self):
        """Roll the dice not held; False (with a note) when the rules refuse."""
        app = self.app
        g = self.game
        if not can_roll(g):
            app.note("No rolls left" if g.rolls_left <= 0 else "All dice held")
            return False
        tip = self.coach.tip(g, A_HOLD, g.held if g.rolls_used else 0)
        try:
            g.roll()
        except RuleError:
            app.note("Can't roll")
            return False
        if app.status.text:
            app.note("")
        self.last_scorer = -1
        self.saving = heap.DUE  # the dice seen, and the roller past them: see after_move()
        if tip:
            app.note(tip, -1, NOTE_KEY)
        return True

    def hint(self):
        """The recommended hold (as a mask of dice to mark) or box, as a note of two rows
        that stays until the next move: the move, then the final total to expect on
        average playing on as advised (or why there is none); -1 before the first roll."""
        g = self.game
        if not g.rolls_used:
            self.app.note("Hint: roll first")
            return -1
        from picoyacht.coach import avg_words, move_words
        kind, arg, value = self.coach.advise(g)
        mask = 0
        if kind != A_SCORE:
            mask = arg if kind == A_HOLD else g.held  # A_ROLL keeps the holds as they are
        text = move_words(g, kind == A_SCORE, arg if kind == A_SCORE else mask)
        if value >= 0:
            text += "\n" + avg_words(value, self.coach.exact(g))
        elif self.coach.plain:
            text += "\n" + _PLAIN + "simple hint"
        self.app.note(text, -1, NOTE_MOVE)
        return mask

    def undo(self):
        """Take back the last box; False (with a note) when there is none to take."""
        app = self.app
        g = self.game
        try:
            g.undo()
        except RuleError:
            app.note("Nothing to undo")
            return False
        app.log('{"ev":"undo","seed":' + str(g.seed) + ',"turn":' + str(g.turn) + "}")
        self.saving = heap.DUE
        self.last_scorer = -1
        app.note("Undone")
        return True

    def score(self, box):
        """The current seat scores box. The next screen's name, or None (with a note) when
        the rules refuse the box."""
        app = self.app
        g = self.game
        seat = g.current
        bonus = g.pending_yahtzee_bonus()
        tip = self.coach.tip(g, A_SCORE, box)
        copy_into(self._log_dice, g.dice)  # as scored: the game moves on to the next turn's
        try:
            pts = g.score(box)
        except RuleError as e:
            app.note(str(e)[:21])
            return None
        self.last_scorer = self.last_seat = seat
        self.last_box = box
        self.last_pts = pts
        self.coach_line = tip
        self._log_bonus = bonus
        self._log_due = True
        if bonus or (pts and box == g.rs.yahtzee_box):
            app.sound(SOUND_YAHTZEE)
        else:
            app.sound(SOUND_SCORE if pts else SOUND_SCRATCH)
        self.saving = heap.DUE  # the game's save, or at its end the records: after_move
        if g.over:  # the last box is drawn as any other; the results come after the save
            self.coach.release()
            self.new_best = False
            self.ending = END_SAVING
            app.sound(SOUND_GAME_OVER)
        elif g.nseats > 1:
            app.note("")
            return "handover"
        if tip:  # the player's eyes are on the dice: the tip stays there until a key
            app.note(tip, -1, NOTE_KEY)
        else:
            app.note(g.rs.boxes[box][NAME], pts)
        return "play"

    def heard(self):
        """The hand-over was read: the coach's word on the last box is done."""
        self.coach_line = ""

    # ---------------------------------------------------------------- CPU seats
    def cpu_step(self):
        """One visible CPU action: (A_ROLL, 0) after a roll (the caller animates it),
        (A_HOLD, mask) with the holds set, or (A_SCORE, next screen's name)."""
        g = self.game
        kind, arg = self.coach.step(g)
        if self.coach.plain:
            self.app.note(_PLAIN + "simple CPU")
        if kind == A_ROLL:
            g.roll()
            self.saving = heap.DUE
        elif kind == A_SCORE:
            return kind, self.score(arg)
        return kind, arg

    # ---------------------------------------------------------------- after a move
    def after_move(self, whole=False):
        """What a move (a box, an undo, a roll) left for after its frame, a pass each (heap.sweep),
        so no pass holds a frame and a save: its log line and a collection, the game's save (a
        roll's too: a resume shows the dice seen) as app.write then app.commit (longer than a
        pass together, when littlefs compacts), its garbage's collection. `whole`: all now."""
        logged = self._log_due
        self._log_score()
        split = self.saving
        if split == heap.SWEPT or (whole and split == heap.DUE):
            self.saving = heap.IDLE
            if self.ending == END_SAVING:
                self.ending = END_LOADING  # first: a step that raises still ends the game
                self.saving = _end_write(self)
            elif self.starting == START_SAVING:
                self.starting = START_LOADING
                saved = self.app.write("settings", self.app.settings.pack())
                self.saving = heap.HALF if saved else heap.LITTER
            elif self.game is not None and not self.demo and self.app.store is not None:
                saved = self.app.write("game", self.game.snapshot())
                self.saving = heap.HALF if saved else heap.LITTER
            if not whole:
                return True
        if self.saving == heap.HALF:  # the write done: the commit's pass
            if self.ending:
                _end_commit(self)
            else:
                self.app.commit("settings" if self.starting else "game")
            self.saving = heap.LITTER
            return True
        if not whole:
            self.saving = heap.sweep(split)
        return logged or self.saving != split

    def _log_score(self):
        if self._log_due:
            self._log_due = False
            from picoyacht import gamelog
            self.app.log(gamelog.score_line(self.game, self.last_seat, self.last_box,
                                            self.last_pts, self._log_dice, self._log_bonus))


def _end_write(turn):
    """The game's end, first half: the records count it (written, the commit next). The
    game's save goes only once the records that count it are on flash."""
    app = turn.app
    if not turn.demo:
        turn.new_best = app.records.add(turn.game)
        if app.write("records", app.records.pack()):
            return heap.HALF
        turn.new_best = False
    _log_end(turn)
    return heap.LITTER


def _end_commit(turn):
    app = turn.app
    if app.commit("records"):
        app.delete("game")
    else:
        turn.new_best = False
    _log_end(turn)


def _log_end(turn):
    from picoyacht import gamelog
    turn.app.log(gamelog.end_line(turn.game))


def _no_entropy(n):
    raise OSError("no entropy source")
