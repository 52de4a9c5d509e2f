"""The handheld's application: a state machine fed with debounced events and a clock.

Functional core, imperative shell: App never reads a pin, a clock or a file by itself.
It gets the display, the set of buttons the build has, a Store, an entropy source and a
console writer as arguments, and `now_ms` with every call, so the same code runs on the
Pico, in the terminal simulator and under scripted tests. `Runner` is the only loop.

Buttons are logical (B_*): a build maps GPIOs onto them. Up, Down, OK and Menu are enough:
everything the hold and Roll buttons do is also reachable with the play screen's cursor.
"""

from picoyacht import gamelog, rules, screens
from picoyacht.debounce import LONG, PRESS, RELEASE, REPEAT
from picoyacht.game import FILLED, HUMAN, LOCKED, POINTS, ZERO, Game, RuleError
from picoyacht.screens import ROW_UPPER

try:
    from micropython import const
except ImportError:  # CPython

    def const(x):
        return x


# Logical buttons: bit i of a raw mask, and the low nibble of an event.
B_HOLD1 = const(0)  # .. B_HOLD1 + 5
B_ROLL = const(6)
B_UP = const(7)
B_DOWN = const(8)
B_OK = const(9)  # "A" on a 4-button build
B_MENU = const(10)  # "B" on a 4-button build
NBUTTONS = const(11)
BUTTON_NAMES = ("hold1", "hold2", "hold3", "hold4", "hold5", "hold6", "roll", "up", "down",
                "ok", "menu")
MIN_BUTTONS = (1 << B_UP) | (1 << B_DOWN) | (1 << B_OK) | (1 << B_MENU)
FULL_BUTTONS = (1 << NBUTTONS) - 1

# Screens.
S_TITLE = const(0)
S_SETUP = const(1)
S_NAME = const(2)
S_PLAY = const(3)
S_CARD = const(4)
S_HANDOVER = const(5)
S_MENU = const(6)
S_SCORES = const(7)
S_OVER = const(8)
S_RATINGS = const(9)
S_RECORDS = const(10)
S_MESSAGE = const(11)
S_DIAG = const(12)
STATE_NAMES = ("title", "setup", "name", "play", "card", "handover", "menu", "scores", "over",
               "ratings", "records", "message", "diag")

# Timings (ms). Class-free so tests can read them.
DIM_MS = const(30000)
BLANK_MS = const(120000)
ANIM_FRAMES = const(4)
ANIM_FRAME_MS = const(70)  # 4 frames: 280 ms, and any press ends it at once
CPU_STEP_MS = const(600)
CPU_HANDOVER_MS = const(1200)
MSG_MS = const(1800)
RETRY_MS = const(250)  # a frame or display command the panel refused is sent again
CONTRAST_ON = const(0xCF)
CONTRAST_DIM = const(0x08)

AWAKE = const(0)
DIM = const(1)
BLANK = const(2)

# Title / menu item codes.
T_RESUME = const(0)
T_NEW = const(1)
T_RECORDS = const(2)
T_DEMO = const(3)
T_DIAG = const(4)
M_BACK = const(0)
M_SCORES = const(1)
M_UNDO = const(2)
M_HINT = const(3)
M_QUIT = const(4)
M_STOP = const(5)

# Setup row codes.
R_RULES = const(0)
R_JOKER = const(1)
R_SHARP = const(2)
R_BET = const(3)
R_SAVED = const(4)
R_BONUS = const(5)
R_PLAYERS = const(6)
R_COACH = const(7)
R_START = const(8)
R_KIND = const(16)  # + seat
R_NAME = const(32)  # + seat

BETS = (5, 10, 20, 50)
COACH_NAMES = ("Off", "Hints", "Hints+tips")
NAME_CHARS = " ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-"
DEFAULT_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve", "Finn")

# CPU actions (the placeholder policy and strategy adapters return these).
A_ROLL = const(0)
A_HOLD = const(1)
A_SCORE = const(2)


def ticks_diff(a, b):
    """a - b for ms tick counts that wrap at 2**30 (the rp2 port), without a long int."""
    d = a - b
    if d >= 0x20000000:
        d -= 0x40000000
    elif d < -0x20000000:
        d += 0x40000000
    return d


def ticks_add(t, ms):
    return (t + ms) & 0x3FFFFFFF


class Settings:
    """The last setup, so the next game starts from it. Packs to ~60 bytes."""

    def __init__(self):
        self.rid = rules.YAHTZEE
        self.options = rules.Options()
        self.nplayers = 2
        self.kinds = bytearray((HUMAN, 2, 2, 2, 2, 2))
        self.names = list(DEFAULT_NAMES)
        self.coach = 0

    def pack(self):
        flags, bet = self.options.pack()
        out = bytearray(b"S\x01")
        out.extend(bytes((self.rid, flags, bet, self.nplayers, self.coach)))
        out.extend(self.kinds)
        for n in self.names:
            b = n.encode()[:8]
            out.append(len(b))
            out.extend(b)
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        """Settings from bytes; ValueError on anything inconsistent."""
        s = cls()
        if len(data) < 13 or data[0:2] != b"S\x01":
            raise ValueError("settings format")
        if data[2] >= rules.COUNT or not 1 <= data[5] <= 6 or data[6] > 2:
            raise ValueError("settings values")
        s.rid = data[2]
        s.options = rules.Options.unpack(data[3], data[4])
        s.nplayers = data[5]
        s.coach = data[6]
        s.kinds = bytearray(data[7:13])
        if max(s.kinds) > 3:
            raise ValueError("settings kinds")
        pos = 13
        for i in range(6):
            n = data[pos]
            name = str(data[pos + 1:pos + 1 + n], "utf-8")
            if not name or len(name) > 8 or pos + 1 + n > len(data):
                raise ValueError("settings names")
            s.names[i] = name
            pos += 1 + n
        if s.options.bet not in BETS:
            s.options.bet = 10
        return s


class Records:
    """Games played and the best total (with its player) per rule set."""

    def __init__(self):
        self.games = [0] * rules.COUNT
        self.best = [0] * rules.COUNT
        self.names = [""] * rules.COUNT

    def pack(self):
        out = bytearray(b"R\x01")
        out.append(rules.COUNT)
        for r in range(rules.COUNT):
            g = min(self.games[r], 0xFFFF)
            b = min(self.best[r], 0xFFFF)
            out.extend(bytes((g & 255, g >> 8, b & 255, b >> 8)))
            nm = self.names[r].encode()[:8]
            out.append(len(nm))
            out.extend(nm)
        return bytes(out)

    @classmethod
    def unpack(cls, data):
        rec = cls()
        if len(data) < 3 or data[0:2] != b"R\x01" or data[2] != rules.COUNT:
            raise ValueError("records format")
        pos = 3
        for r in range(rules.COUNT):
            if pos + 5 > len(data):
                raise ValueError("records truncated")
            rec.games[r] = data[pos] | data[pos + 1] << 8
            rec.best[r] = data[pos + 2] | data[pos + 3] << 8
            n = data[pos + 4]
            if n > 8 or pos + 5 + n > len(data):
                raise ValueError("records names")
            rec.names[r] = str(data[pos + 5:pos + 5 + n], "utf-8")
            pos += 5 + n
        return rec

    def add(self, game):
        r = game.rs.id
        self.games[r] += 1
        for s in range(game.nseats):
            t = screens.total_of(game, s)
            if t > self.best[r]:
                self.best[r] = t
                self.names[r] = game.names[s]


# ---------------------------------------------------------------- CPU / coach hooks
def _most_common_mask(game):
    """Hold the dice of the most common face (ties: the higher face)."""
    counts = bytearray(7)
    for d in game.dice:
        counts[d] += 1
    best = 6
    for f in range(6, 0, -1):
        if counts[f] > counts[best]:
            best = f
    mask = 0
    for i in range(len(game.dice)):
        if game.dice[i] == best:
            mask |= 1 << i
    return mask


def _best_box(game):
    """The selectable box with the highest score now (the placeholder's only idea)."""
    best = -1
    best_pts = -1
    for b in range(game.rs.nboxes):
        st = game.box_state(b)
        if st == POINTS or st == ZERO:
            p = game.preview(b)
            if p > best_pts:
                best, best_pts = b, p
    return best


def _fallback_action(game, level):
    """Placeholder policy until picoyacht.strategy is present: keep the most common face."""
    if not game.rolls_used:
        return A_ROLL, 0
    if game.rolls_left and level > 0:
        want = _most_common_mask(game)
        if want != game.held:
            return A_HOLD, want
        if want != (1 << len(game.dice)) - 1:
            return A_ROLL, 0
    return A_SCORE, _best_box(game)


def _strategy():
    try:
        from picoyacht import strategy
    except (ImportError, MemoryError):
        return None
    return strategy


def _draw_diag(cv, app):
    """The diagnostics screen; its module is imported only when a builder asks for it."""
    from picoyacht import diag

    if app.diag_facts is None:
        app.diag_facts = diag.Facts()
    diag.draw(cv, app.diag_facts)


class App:
    """Screens, cursors and timers around one Game. See the module docstring."""

    ACTIONS = ("Roll", "Score", "Hint")

    def __init__(self, display, present=FULL_BUTTONS, store=None, urandom=None,
                 console=None, now_ms=0, boot_buttons=0, cpu_action=None, advisor=None):
        self.disp = display
        self.cv = screens.Canvas(display, display.buffer)
        self.present = present | MIN_BUTTONS
        self.full = (present & 0x7F) == 0x7F  # six hold buttons and Roll
        self.store = store
        self.console = console
        self._st = None  # picoyacht.strategy, imported on first need (it is big)
        self._tbl = None  # Expert's table for this game, or False
        self._plan_roll = False
        self._cpu_rng = None
        self.given = [0] * 6  # centi-points given away per seat (coach)
        self.worst = None  # the game's costliest move: (centi-points, seat, round, box or -1)
        self.cpu_action = cpu_action or self._cpu_action_default
        self.advisor = advisor
        self.legend = ("1-6 hold  Roll  OK" if self.full else "Up/Dn move  A select")
        from picoyacht.roller import Roller, seed_from_entropy

        self._Roller = Roller
        self.boot_roller = Roller(seed_from_entropy(urandom or _no_entropy, now_ms))
        self._rng = (now_ms & 0xFFFF) | 1  # for roll animations only, never the dice
        self.settings = Settings()
        self.records = Records()
        self.game = None
        self.demo = False
        self.rows = bytearray()
        self.state = S_TITLE
        self.back = S_TITLE
        self.menu_back = S_PLAY
        self.items = bytearray()
        self.sel = 0
        self.cursor = 0
        self.row = 0
        self.page = 0
        self.confirm = False
        self.dirty = True
        self.msg = ""
        self.msg_at = 0
        self.msg_title = ""
        self.msg_lines = ()
        self.msg_hint = ""
        self.msg_next = S_TITLE
        self.save_msg = ""
        self.last_line = ""
        self.coach_line = ""
        self.coach = 0
        self.hint_mask = 0
        self.anim = 0
        self.anim_at = 0
        self.anim_dice = bytearray(6)
        self.cpu_at = 0
        self.hand_at = 0
        self.last_scorer = -1
        self.winners = []
        self.ranking = []
        self.proficiency = [-1] * 6
        self.edit = ""
        self.edit_pos = 0
        self.edit_seat = 0
        self.power = AWAKE
        self.last_input = now_ms
        self.swallow = 0
        self.now = now_ms
        self.diag_facts = None  # picoyacht.diag.Facts while the diagnostics screen is up
        self.diag_count = 0
        self.frames = 0
        self.unsent = False  # the panel refused the last frame or command: retry
        self.unsent_at = now_ms
        self._boot(now_ms, boot_buttons)

    # ---------------------------------------------------------------- boot and saves
    def _load(self, kind, parse, notes):
        """Payload parsed, or None; every failure becomes a line for the boot message."""
        if self.store is None:
            return None
        def check(payload):  # the store skips copies this refuses, and never backs them up
            return parse(payload) is not None

        try:
            data = self.store.load(kind, check)
            err = self.store.last_error
        except Exception as e:  # a Store must not raise, but a flaky flash might
            data, err = None, "read error " + str(e)
        if err:
            notes.append(kind + ": " + err)
        if data is None:
            return None
        try:
            return parse(data)
        except Exception:
            notes.append(kind + ": unreadable, reset")
            return None

    def _boot(self, now, boot_buttons):
        notes = []
        s = self._load("settings", Settings.unpack, notes)
        if s is not None:
            self.settings = s
        r = self._load("records", Records.unpack, notes)
        if r is not None:
            self.records = r
        g = self._load("game", self._restore, notes)
        resumable = g is not None and not g.over
        if resumable:
            self._adopt(g)
            self.coach = self.settings.coach
        self._title()
        if notes:
            self._message("Fresh start" if g is None else "Note", notes, "OK: continue",
                          S_TITLE)
            self._pending = resumable
        elif resumable:
            self._offer_resume()
        if boot_buttons & (1 << B_MENU):
            self.state = S_DIAG
        self.dirty = True

    def _offer_resume(self):
        self._message("Saved game", self._resume_lines(), "OK resume  Menu: new", S_PLAY)
        self.msg_next = -1  # OK resumes, Menu goes to the title

    _pending = False

    def _restore(self, data):
        return Game.restore(data, self._Roller(1))

    def _resume_lines(self):
        g = self.game
        lines = [g.rs.name + ", " + str(g.nseats) + " player" + ("s" if g.nseats > 1 else ""),
                 "turn " + str(g.turn // g.nseats + 1) + " of " + str(g.rs.nboxes)]
        for s in range(g.nseats):
            if len(lines) > 4:
                break
            lines.append(g.names[s] + " " + str(screens.total_of(g, s)))
        return lines

    def _save(self, kind, payload):
        if self.store is None:
            return True
        try:
            ok = self.store.save(kind, payload)
            err = self.store.last_error
        except Exception as e:
            ok, err = False, "not saved: " + str(e)
        if not ok:
            self.save_msg = err or "not saved"
            self._log('{"ev":"save_error","kind":"' + kind + '","msg":' + gamelog.q(self.save_msg)
                      + "}")
        elif kind == "game":
            self.save_msg = ""
        return ok

    def _save_game(self):
        if self.game is not None and not self.demo and self.store is not None:
            self._save("game", self.game.snapshot())

    # ---------------------------------------------------------------- helpers
    def _log(self, line):
        if self.console is not None:
            try:
                self.console(line)
            except Exception:
                pass

    def _message(self, title, lines, hint, nxt):
        self.msg_title = title
        self.msg_lines = _wrap(lines, 21)
        self.msg_hint = hint
        self.msg_next = nxt
        self.state = S_MESSAGE
        self.dirty = True

    def _flash(self, text):
        """A short note on the status line that clears itself after MSG_MS."""
        self.msg = text
        self.msg_at = self.now
        self.dirty = True

    def _title(self):
        items = bytearray()
        if self.game is not None and not self.game.over and not self.demo:
            items.append(T_RESUME)
        items.append(T_NEW)
        items.append(T_RECORDS)
        items.append(T_DEMO)
        self.items = items
        self.sel = 0
        self.msg = ""
        self.state = S_TITLE
        self.dirty = True

    def _adopt(self, game):
        self.game = game
        self._tbl = None
        self._plan_roll = False
        if self._cpu_rng is None:
            self._cpu_rng = self._Roller(game.seed ^ 0x2545F49)
        self.given = [0] * game.nseats
        self.worst = None
        self.rows = screens.card_rows(game.rs)
        self.cursor = len(game.dice)
        self.row = 0
        self.hint_mask = 0
        self.confirm = False
        self.msg = ""
        self.anim = 0
        self.last_scorer = -1

    def can_roll(self):
        g = self.game
        if g.rolls_left <= 0:
            return False
        return not (g.rolls_used and g.held == (1 << len(g.dice)) - 1)

    def auto_cpu(self):
        g = self.game
        return g is not None and not g.over and g.kinds[g.current] != HUMAN

    def _nitems(self):
        return len(self.game.dice) + (3 if self.coach else 2)

    # ---------------------------------------------------------------- events
    def event(self, ev, now):
        """One debounced event (kind << 4 | button) at time now."""
        self.now = now
        kind = ev >> 4
        btn = ev & 15
        bit = 1 << btn
        if kind == RELEASE:
            self.swallow &= ~bit
            return
        if self.swallow & bit:
            return  # LONG/REPEAT of the press that woke the screen
        if self.power != AWAKE:
            if kind == PRESS:
                self._wake(now)
                self.swallow |= bit
            return
        self.last_input = now
        if self.anim:
            self.anim = 0
            self.dirty = True
        if kind == REPEAT:
            if btn != B_UP and btn != B_DOWN:
                return
            kind = PRESS
        st = self.state
        if st == S_DIAG:
            self.diag_count += 1
            self.dirty = True
            if kind == LONG and btn == B_MENU:
                self._title()
            return
        if kind == LONG:
            if st == S_NAME and btn == B_OK:
                self._name_done()
            return
        if st == S_PLAY:
            self._on_play(btn)
        elif st == S_CARD:
            self._on_card(btn)
        elif st == S_HANDOVER:
            self._on_handover(btn)
        elif st == S_TITLE:
            self._on_list(btn, self._title_pick)
        elif st == S_MENU:
            self._on_list(btn, self._menu_pick)
        elif st == S_SETUP:
            self._on_setup(btn)
        elif st == S_NAME:
            self._on_name(btn)
        elif st == S_SCORES:
            self._on_pages(btn, self._score_pages(), self.back)
        elif st == S_OVER:
            if btn == B_OK or btn == B_ROLL:
                self.page = 0
                self.state = S_RATINGS
            elif btn == B_MENU:
                self._title()
        elif st == S_RATINGS:
            g = self.game
            n = g.nseats * ((g.rs.nboxes + 13) // 14)
            if btn == B_OK and self.page == n - 1:
                self._title()
            else:
                self._on_pages(btn, n, -1)
        elif st == S_RECORDS:
            self._on_pages(btn, 2, -1)
        elif st == S_MESSAGE:
            self._on_message(btn)
        self.dirty = True

    def _on_list(self, btn, pick):
        n = len(self.items)
        if btn == B_UP:
            self.sel = (self.sel - 1) % n
        elif btn == B_DOWN:
            self.sel = (self.sel + 1) % n
        elif btn == B_OK or btn == B_ROLL:
            pick(self.items[self.sel])
        elif btn == B_MENU:
            pick(-1)

    def _on_pages(self, btn, n, back):
        """Up/Down flip pages; OK goes on (or back), Menu goes back."""
        if btn == B_UP:
            self.page = (self.page - 1) % n
        elif btn == B_DOWN or (btn == B_OK and back < 0):
            self.page = (self.page + 1) % n
        elif btn == B_MENU or btn == B_OK:
            if back < 0:
                self._title()
            else:
                self.state = back

    def _on_message(self, btn):
        if btn != B_OK and btn != B_MENU and btn != B_ROLL:
            return
        if self._pending:
            self._pending = False
            self._offer_resume()
            return
        nxt = self.msg_next
        if nxt == -1:  # the resume offer
            if btn == B_MENU:
                self._title()
            else:
                self._resume()
            return
        if nxt == S_TITLE:
            self._title()
        else:
            self.state = nxt

    # ---------------------------------------------------------------- title and menu
    def _title_pick(self, code):
        if code == T_RESUME:
            self._resume()
        elif code == T_NEW:
            self._setup()
        elif code == T_RECORDS:
            self.page = 0
            self.state = S_RECORDS
        elif code == T_DEMO:
            self._start_demo()

    def _resume(self):
        g = self.game
        self.demo = False
        self.coach = self.settings.coach
        if g.rolls_used == 0 and g.nseats > 1:
            self.state = S_HANDOVER
            self.last_line = ""
            self.coach_line = ""
            self.hand_at = self.now
        else:
            self.state = S_PLAY
            self.cpu_at = self.now
        self.dirty = True

    def _open_menu(self):
        items = bytearray((M_BACK, M_SCORES))
        g = self.game
        if (g.can_undo and not self.demo and self.last_scorer >= 0
                and g.kinds[self.last_scorer] == HUMAN):
            items.append(M_UNDO)
        if self.coach and g.kinds[g.current] == HUMAN and g.rolls_used:
            items.append(M_HINT)
        items.append(M_STOP if self.demo else M_QUIT)
        self.menu_back = self.state
        self.items = items
        self.sel = 0
        self.state = S_MENU

    def _menu_pick(self, code):
        if code == M_BACK or code < 0:
            self.state = self.menu_back
            self.cpu_at = self.now
        elif code == M_SCORES:
            self.page = 0
            self.state = S_SCORES
            self.back = S_MENU
        elif code == M_UNDO:
            self._undo()
        elif code == M_HINT:
            self.state = S_PLAY
            self._hint()
        elif code == M_QUIT or code == M_STOP:
            if self.demo:
                self.game = None
                self.demo = False
            self._title()

    def _score_pages(self):
        g = self.game
        return ((len(self.rows) + 5) // 6) * ((g.nseats + 3) // 4)

    # ---------------------------------------------------------------- setup
    def _setup(self):
        self.state = S_SETUP
        self.sel = 0
        self._setup_items()

    def _setup_items(self):
        s = self.settings
        rs = rules.RULESETS[s.rid]
        items = bytearray((R_RULES,))
        if rs.joker:
            items.append(R_JOKER)
        if rs.sharp:
            items.append(R_SHARP)
        if rs.casino:
            items.append(R_BET)
        if rs.saved_rolls:
            items.append(R_SAVED)
        if rs.bonus_option:
            items.append(R_BONUS)
        items.append(R_PLAYERS)
        for i in range(s.nplayers):
            items.append(R_KIND + i)
            items.append(R_NAME + i)
        items.append(R_COACH)
        items.append(R_START)
        self.items = items
        if self.sel >= len(items):
            self.sel = len(items) - 1

    def _on_setup(self, btn):
        n = len(self.items)
        if btn == B_UP:
            self.sel = (self.sel - 1) % n
        elif btn == B_DOWN:
            self.sel = (self.sel + 1) % n
        elif btn == B_OK:
            self._setup_change(self.items[self.sel], 1)
        elif btn == B_ROLL:
            self._setup_change(self.items[self.sel], -1)
        elif btn == B_MENU:
            self._title()

    def _setup_change(self, code, d):
        s = self.settings
        o = s.options
        if code == R_RULES:
            s.rid = (s.rid + d) % rules.COUNT
        elif code == R_JOKER:
            o.joker = (o.joker + d) % 3
        elif code == R_SHARP:
            o.sharp = not o.sharp
        elif code == R_BET:
            i = BETS.index(o.bet) if o.bet in BETS else 1
            o.bet = BETS[(i + d) % len(BETS)]
        elif code == R_SAVED:
            o.saved_rolls = not o.saved_rolls
        elif code == R_BONUS:
            o.bonus100 = not o.bonus100
        elif code == R_PLAYERS:
            s.nplayers = (s.nplayers - 1 + d) % 6 + 1
        elif code == R_COACH:
            s.coach = (s.coach + d) % 3
        elif code == R_START:
            self._start_game()
            return
        elif code >= R_NAME:
            self.edit_seat = code - R_NAME
            self.edit = s.names[self.edit_seat]
            self.edit_pos = 0
            self.state = S_NAME
            return
        elif code >= R_KIND:
            k = code - R_KIND
            s.kinds[k] = (s.kinds[k] + d) % 4
        self._setup_items()

    def _on_name(self, btn):
        e = self.edit
        p = self.edit_pos
        if btn == B_UP or btn == B_DOWN:
            ch = e[p] if p < len(e) else " "
            i = NAME_CHARS.find(ch)
            i = (i + (1 if btn == B_UP else -1)) % len(NAME_CHARS)
            self.edit = e[:p] + NAME_CHARS[i] + e[p + 1:]
        elif btn == B_OK:
            if p < 7:
                self.edit_pos = p + 1
                if self.edit_pos >= len(e):
                    self.edit = e + " " if len(e) < 8 else e
            else:
                self._name_done()
        elif btn == B_MENU:
            self._name_done()

    def _name_done(self):
        name = self.edit.strip()
        self.settings.names[self.edit_seat] = name or DEFAULT_NAMES[self.edit_seat]
        self.state = S_SETUP
        self.dirty = True

    def _new_seed(self):
        r = self.boot_roller
        return (r.rand15() << 15) | r.rand15()

    def _start_game(self):
        s = self.settings
        self._save("settings", s.pack())
        seed = self._new_seed()
        n = s.nplayers
        g = Game(s.rid, s.names[:n], s.kinds[:n], _copy_options(s.options),
                 self._Roller(seed), seed)
        self.demo = False
        self.coach = s.coach
        self._begin(g)

    def _start_demo(self):
        seed = self._new_seed()
        g = Game(rules.YAHTZEE, ["Easy", "Normal", "Expert"], bytearray((1, 2, 3)),
                 rules.Options(), self._Roller(seed), seed)
        self.demo = True
        self.coach = 0
        self._begin(g)

    def _begin(self, g):
        self._adopt(g)
        self._tbl = None
        self._plan_roll = False
        self._cpu_rng = self._Roller(g.seed ^ 0x2545F49)
        self.given = [0] * g.nseats
        self.save_msg = ""
        self.last_line = ""
        self.coach_line = ""
        self.proficiency = [-1] * g.nseats
        self._log(gamelog.start_line(g))
        self._save_game()
        if g.nseats > 1:
            self.state = S_HANDOVER
            self.hand_at = self.now
        else:
            self.state = S_PLAY
            self.cpu_at = self.now
        self.dirty = True

    # ---------------------------------------------------------------- play
    def _on_play(self, btn):
        g = self.game
        if g.kinds[g.current] != HUMAN:
            if btn == B_MENU:
                self._open_menu()
            else:
                self._cpu_finish()
            return
        n = len(g.dice)
        if btn < 6:
            if btn < n:
                self._toggle(btn)
        elif btn == B_ROLL:
            self._roll()
        elif btn == B_UP:
            self.cursor = (self.cursor - 1) % self._nitems()
        elif btn == B_DOWN:
            self.cursor = (self.cursor + 1) % self._nitems()
        elif btn == B_OK:
            c = self.cursor
            if c < n:
                self._toggle(c)
            elif c == n:
                self._roll()
            elif c == n + 1:
                self._open_card()
            else:
                self._hint()
        elif btn == B_MENU:
            self._open_menu()

    def _toggle(self, i):
        g = self.game
        if not g.rolls_used:
            self._flash("Roll first")
            return
        g.held ^= 1 << i
        self.msg = ""
        self.hint_mask = 0

    def _roll(self):
        g = self.game
        if not self.can_roll():
            self._flash("No rolls left" if g.rolls_left <= 0 else "All dice held")
            return
        cost = self._cost(A_HOLD, g.held if g.rolls_used else 0)
        try:
            g.roll()
        except RuleError:
            self._flash("Can't roll")
            return
        self.msg = ""
        self.hint_mask = 0
        self.last_scorer = -1
        self.anim = 1
        self.anim_at = self.now
        self._shake()
        if cost >= 50:
            self._flash("Coach: hold gave " + _centi(cost))
        n = len(g.dice)
        if g.rolls_left <= 0 or self.full:
            self.cursor = n + 1
        else:
            self.cursor = 0

    def _shake(self):
        g = self.game
        r = self._rng
        for i in range(len(g.dice)):
            if g.held >> i & 1:
                self.anim_dice[i] = g.dice[i]
            else:
                r = (r * 75 + 74) % 65537
                self.anim_dice[i] = r % 6 + 1
        self._rng = r

    def _open_card(self):
        g = self.game
        self.state = S_CARD
        self.confirm = False
        self.msg = ""
        best = -1
        best_pts = -1
        rows = self.rows
        for i in range(len(rows)):
            b = rows[i]
            if b >= ROW_UPPER:
                continue
            st = g.box_state(b)
            if st == POINTS or st == ZERO:
                p = g.preview(b)
                if p > best_pts:
                    best, best_pts = i, p
        self.row = best if best >= 0 else 0

    def _on_card(self, btn):
        g = self.game
        n = len(self.rows)
        if btn == B_UP or btn == B_DOWN:
            self.row = (self.row + (1 if btn == B_DOWN else -1)) % n
            self.confirm = False
            self.msg = ""
        elif btn == B_OK:
            code = self.rows[self.row]
            if code >= ROW_UPPER:
                self._flash("Pick a box")
                return
            st = g.box_state(code)
            if st == FILLED:
                self._flash("Already filled")
            elif st == LOCKED:
                self._flash("Roll first" if not g.rolls_used else "Joker: not here")
            elif st == ZERO and not self.confirm:
                self.confirm = True
                self._flash("Score 0? OK again")
            else:
                self._score(code)
        elif btn == B_MENU:
            self.state = S_PLAY
            self.msg = ""
        elif btn == B_ROLL:
            self.state = S_PLAY
            self.msg = ""
            self._roll()
        elif btn < 6:
            self.state = S_PLAY
            self.msg = ""
            if btn < len(g.dice):
                self._toggle(btn)

    def _score(self, box):
        g = self.game
        seat = g.current
        dice = bytes(g.dice)
        bonus = g.pending_yahtzee_bonus()
        tip = self._tip(box)
        try:
            pts = g.score(box)
        except RuleError as e:
            self._flash(str(e)[:21])
            return
        self.last_scorer = seat
        name = g.rs.boxes[box][rules.NAME]
        self.last_line = g.names[seat] + ": " + name + " " + str(pts)
        self.coach_line = tip
        self._log(gamelog.score_line(g, seat, box, pts, dice, bonus))
        self._save_game()
        self.confirm = False
        self.msg = ""
        self.hint_mask = 0
        if g.over:
            self._game_over()
            return
        self.cursor = len(g.dice)
        if g.nseats > 1:
            self.state = S_HANDOVER
            self.hand_at = self.now
        else:
            self.state = S_PLAY
            self._flash(name + " " + str(pts))
            self.cpu_at = self.now

    def _undo(self):
        g = self.game
        try:
            g.undo()
        except RuleError:
            self._flash("Nothing to undo")
            self.state = S_PLAY
            return
        self._log('{"ev":"undo","seed":' + str(g.seed) + ',"turn":' + str(g.turn) + "}")
        self._save_game()
        self.last_scorer = -1
        self.state = S_PLAY
        self.cursor = len(g.dice) + 1
        self._flash("Undone")

    def _on_handover(self, btn):
        g = self.game
        if btn == B_MENU:
            self._open_menu()
            return
        self.state = S_PLAY
        self.cpu_at = self.now
        self.coach_line = ""
        if btn == B_ROLL and g.kinds[g.current] == HUMAN:
            self._roll()

    # ---------------------------------------------------------------- coach and CPU
    def _hint(self):
        """Show the recommended hold (dots under dice) or box, with its value."""
        g = self.game
        if not g.rolls_used:
            self._flash("Hint: roll first")
            return
        adv = self.advisor or self._advise
        kind, arg, value = adv(g)
        if kind == A_SCORE:
            text = "Take " + g.rs.boxes[arg][rules.ABBR] + " " + str(g.preview(arg))
            self.hint_mask = 0
        else:
            self.hint_mask = arg if kind == A_HOLD else g.held
            text = "Hold dots"
            if not arg:
                text = "Roll all"
        if value >= 0:
            text += ", exp " + _centi(value)
        self._flash(text)
        self.msg_at = self.now + 0x100000  # keep it until the next action

    def _tip(self, box):
        """Coach level 2: what the chosen box gave away, in expected points."""
        c = self._cost(A_SCORE, box)
        if c < 50:
            return ""
        return "Coach: gave away " + _centi(c)

    def _strat(self):
        if self._st is None:
            self._st = _strategy() or False
        return self._st or None

    def _table(self):
        if self._tbl is None:
            self._tbl = False
            try:
                from picoyacht import strategy_table

                self._tbl = strategy_table.load(self.game) or False
            except Exception:
                pass
        return self._tbl or None

    def _cpu_action_default(self, game, level):
        """strategy.cpu_step's (HOLD mask | SCORE box) as visible steps: set the holds,
        then roll on the next step; the placeholder policy if strategy is missing."""
        if self._plan_roll:
            self._plan_roll = False
            return A_ROLL, 0
        st = self._strat()
        if st is None:
            return _fallback_action(game, level)
        try:
            kind, arg = st.cpu_step(game, level, self._table(), self._cpu_rng)
        except Exception as e:  # MemoryError on a small heap: play on, simply
            self._log('{"ev":"cpu_error","msg":' + gamelog.q(repr(e)[:40]) + "}")
            self._st = False  # don't retry every step: fall back for this session
            return _fallback_action(game, level)
        if kind == st.SCORE:
            return A_SCORE, arg
        if game.rolls_used and game.held != arg:
            self._plan_roll = True
            return A_HOLD, arg
        return A_ROLL, 0

    def _advise(self, g):
        """(A_HOLD mask | A_SCORE box | A_ROLL, arg, expected final total in centi-points
        or -1) for the coach's Hint."""
        st = self._strat()
        if st is not None:
            try:
                kind, arg, value = st.advise(g, st.EXPERT, self._table())
                if kind == st.SCORE:
                    return A_SCORE, arg, value
                return A_HOLD, arg, value
            except Exception:
                pass
        kind, arg = _fallback_action(g, 2)
        return kind, arg, -1

    def _cost(self, kind, arg):
        """Coach tips: centi-points this action gives away (0 when no coach/strategy).
        Every seat is judged, CPUs included, so an Easy CPU's slips show up too."""
        g = self.game
        if self.coach < 2:
            return 0
        st = self._strat()
        if st is None:
            return 0
        try:
            c = st.move_cost(g, st.SCORE if kind == A_SCORE else st.HOLD, arg, self._table())
        except Exception:
            return 0
        self.given[g.current] += c
        if c > 0 and (self.worst is None or c > self.worst[0]):
            self.worst = (c, g.current, g.turn // g.nseats + 1, arg if kind == A_SCORE else -1)
        return c

    def _cpu_step(self):
        """One visible CPU action: a roll, a change of holds, or a box."""
        g = self.game
        seat = g.current
        kind, arg = self.cpu_action(g, g.kinds[seat])
        if kind == A_HOLD:
            try:
                g.set_held(arg)
            except RuleError:
                kind = A_SCORE
                arg = _best_box(g)
        if kind == A_ROLL:
            if self.can_roll():
                g.roll()
                self.anim = 1
                self.anim_at = self.now
                self._shake()
                return
            kind, arg = A_SCORE, _best_box(g)
        if kind == A_SCORE:
            if arg < 0 or g.box_state(arg) not in (POINTS, ZERO):
                arg = _best_box(g)
            if arg < 0:  # no roll yet: the policy returned nonsense
                g.roll()
                return
            self._score(arg)

    def _cpu_finish(self):
        """Skip: play the rest of the CPU's turn at once."""
        g = self.game
        turn = g.turn
        for _ in range(60):
            if g.turn != turn or g.over or self.state != S_PLAY:
                break
            self._cpu_step()
        self.anim = 0

    # ---------------------------------------------------------------- game over
    def _game_over(self):
        g = self.game
        self.winners = g.winners()
        rank = list(range(g.nseats))
        rank.sort(key=lambda s: -screens.total_of(g, s))
        self.ranking = rank
        if self.coach >= 2:
            self.proficiency = self.given
        if not self.demo:
            self.records.add(g)
            self._save("records", self.records.pack())
            if self.store is not None:
                try:
                    self.store.delete("game")
                except Exception:
                    pass
        self._log(gamelog.end_line(g))
        self.state = S_OVER
        self.dirty = True

    # ---------------------------------------------------------------- time
    def tick(self, now):
        """Advance timers: roll animation, CPU pacing, notes, dimming."""
        self.now = now
        st = self.state
        if self.anim and ticks_diff(now, self.anim_at) >= ANIM_FRAME_MS:
            self.anim += 1
            self.anim_at = now
            if self.anim > ANIM_FRAMES:
                self.anim = 0
            else:
                self._shake()
            self.dirty = True
        if self.msg and ticks_diff(now, self.msg_at) >= MSG_MS:
            self.msg = ""
            self.confirm = False
            self.dirty = True
        g = self.game
        if g is not None and not g.over and g.kinds[g.current] != HUMAN:
            if st == S_PLAY and not self.anim:
                if ticks_diff(now, self.cpu_at) >= CPU_STEP_MS:
                    self.cpu_at = now
                    self.last_input = now
                    self._cpu_step()
                    self.dirty = True
            elif st == S_HANDOVER and ticks_diff(now, self.hand_at) >= CPU_HANDOVER_MS:
                self.state = S_PLAY
                self.cpu_at = now
                self.last_input = now
                self.dirty = True
        elif self.demo and st == S_HANDOVER and ticks_diff(now, self.hand_at) >= CPU_HANDOVER_MS:
            self.state = S_PLAY
            self.dirty = True
        idle = ticks_diff(now, self.last_input)
        if self.power == AWAKE and idle >= DIM_MS:
            self.power = DIM
            self._display("contrast", CONTRAST_DIM)
        elif self.power == DIM and idle >= BLANK_MS:
            self.power = BLANK
            self._display("sleep", -1)

    def _wake(self, now):
        self._display("wake", -1)
        self._display("contrast", CONTRAST_ON)
        self.power = AWAKE
        self.last_input = now
        self.dirty = True

    def _display(self, what, arg):
        """Display power calls; a display that stops answering must not stop the game."""
        f = getattr(self.disp, what, None)
        if f is None:
            return
        try:
            ok = f(arg) if arg >= 0 else f()
        except OSError:
            ok = False
        if ok is False:  # the driver re-applies it with its re-init: see render()
            self.unsent = True
            self.unsent_at = self.now

    # ---------------------------------------------------------------- drawing
    DRAW = (screens.draw_title, screens.draw_setup, screens.draw_name, screens.draw_play,
            screens.draw_card, screens.draw_handover, screens.draw_menu, screens.draw_scores,
            screens.draw_over, screens.draw_ratings, screens.draw_records,
            screens.draw_message, _draw_diag)

    def fault(self, e):
        """Last line of defence: log, show a note, go back to a safe screen, keep the game."""
        self._log('{"ev":"fault","msg":' + gamelog.q(repr(e)[:60]) + "}")
        self.anim = 0
        self._message("Oops", [repr(e)[:21], "the game is kept"], "OK: title", S_TITLE)

    def render(self):
        """Redraw the whole frame if anything changed; the driver sends only what changed.

        If the panel refused the last frame or command (a bus error: the driver then
        re-inits it and sends the whole frame on its next flush), try again every
        RETRY_MS, so the display recovers by itself when the bus comes back."""
        retry = self.unsent and ticks_diff(self.now, self.unsent_at) >= RETRY_MS
        if self.power == BLANK:
            if retry:
                self._flush()  # the re-init leaves the panel asleep
            return False
        if not self.dirty and not retry:
            return False
        self.dirty = False
        self.DRAW[self.state](self.cv, self)
        self.frames += 1
        self._flush()
        return True

    def _flush(self):
        try:
            ok = self.disp.flush()
        except OSError:
            ok = False
        self.unsent = ok is False
        self.unsent_at = self.now


def _centi(v):
    """Centi-points as "12.3" (integers only)."""
    return str(v // 100) + "." + str(v // 10 % 10)


def _wrap(lines, width):
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


def _copy_options(o):
    flags, bet = o.pack()
    return rules.Options.unpack(flags, bet)


def _no_entropy(n):
    raise OSError("no entropy source")


class Runner:
    """The main loop: sample buttons, feed the debouncer, hand events to the app, draw.

    `board` supplies ticks_ms(), poll(debouncer, now) (loop sampling, or draining the
    samples a Timer took), idle() (sleep until the next sample), running(), display,
    present, store, urandom, console and boot_buttons."""

    def __init__(self, board, app=None):
        from picoyacht.debounce import Debouncer

        self.board = board
        self.deb = Debouncer(NBUTTONS, repeat_mask=(1 << B_UP) | (1 << B_DOWN))
        now = board.ticks_ms()
        self.app = app or App(board.display, board.present, board.store, board.urandom,
                              board.console, now, board.boot_buttons)
        self.loop_ms = 0

    def step(self):
        b = self.board
        app = self.app
        deb = self.deb
        now = b.ticks_ms()
        b.poll(deb, now)
        ev = deb.get()
        while ev >= 0:
            try:
                app.event(ev, now)
            except Exception as e:  # a bug must not lose the game: note it, carry on
                app.fault(e)
            ev = deb.get()
        try:
            app.tick(now)
            if app.state == S_DIAG:
                self._diag(now)
            app.render()
        except Exception as e:
            app.fault(e)
        b.idle()

    def _diag(self, now):
        """Feed the diagnostics screen: live buttons, I2C devices, heap, versions, battery."""
        from picoyacht import diag

        app = self.app
        seed = app.game.seed if app.game is not None else app.boot_roller.seed
        buttons = None if hasattr(self.board, "read") else self.deb.pressed
        app.diag_facts = diag.collect(self.board, now, seed, app.diag_facts, buttons)
        if app.diag_facts.changed:
            app.dirty = True

    _last = 0

    def run(self):
        while self.board.running():
            self.step()

