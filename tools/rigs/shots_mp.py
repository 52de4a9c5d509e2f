"""Every screen, reached by pressing buttons on the headless board (MicroPython or CPython).

Prints one line per screen: "FRAME <name> <hex of the panel RAM>". The panel RAM is what
the display driver actually sent, so these are real framebuffers. Dice are set directly
where a screenshot needs a particular throw; everything else is reached through buttons.
Used by tools/sim/shots.py (PNGs) and host_tests/test_ui.py (golden frames).
"""

import gc
import sys

from board_sim import FOUR, FULL, Driver, HeadlessBoard, finish

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import menus, newgame, strategy_table

# Goldens must not depend on whether `make tables` was run here: hints and the coach use
# Normal's estimates (Expert without a table), on every machine alike.
strategy_table.load = lambda game, dirs=(): None
strategy_table.available = lambda rid, joker, dirs=(): False  # and setup says so


def hexlify(b):
    import binascii
    import gc

    gc.collect()
    return binascii.hexlify(b).decode()


class Shots:
    def __init__(self, present=FULL, store=None, boot=0):
        self.board = HeadlessBoard(present, store, boot_buttons=boot)
        self.runner = A.Runner(self.board)
        self.d = Driver(self.board, self.runner)
        self.app = self.runner.app
        self.d.run_ms(30)

    def shot(self, name):
        self.d.run_ms(20)
        print("FRAME", name, hexlify(self.d.frame()))

    def press(self, *btns):
        for b in btns:
            self.d.press(b)

    def item(self, code):
        self.d.select(code, 30)

    def start(self, nplayers, coach=0, rid=0, humans=1):
        """A new game from the title: rule set, seats (the first `humans` human, the rest
        CPU Normal), coach; then Start."""
        s = self.app.settings
        s.rid, s.nplayers, s.coach = rid, nplayers, coach
        for seat in range(nplayers):
            s.kinds[seat] = 0 if seat < humans else 2
        self.press(K.B_OK)
        self.item(newgame.R_START)
        self.press(K.B_OK)
        return self.app.turn.game


def set_dice(app, faces, held=0):
    g = app.turn.game
    for i in range(len(g.dice)):
        g.dice[i] = faces[i]
    g.held = held
    app.dirty = True


def main():
    s = Shots()
    app = s.app
    s.shot("title")
    s.press(K.B_OK)  # New game
    s.shot("setup")
    s.item(newgame.R_NAME + 0)
    s.press(K.B_OK, K.B_UP)
    s.shot("name")
    s.press(K.B_DOWN, K.B_MENU)
    s.item(newgame.R_KIND + 1)
    s.press(K.B_OK, K.B_OK, K.B_OK)  # P2: Human, CPU Easy, CPU Normal, CPU Expert
    s.shot("setup_no_table")  # without Expert's table here
    s.item(newgame.R_START)
    s.press(K.B_DOWN, K.B_UP)
    s.shot("setup_start")
    s.press(K.B_OK)
    s.shot("handover")
    s.press(K.B_OK)
    s.shot("play_ready")
    s.press(K.B_ROLL)
    s.d.run_ms(75)
    s.shot("play_rolling")
    s.d.run_ms(300)
    set_dice(app, (3, 3, 5, 3, 5))
    s.shot("play_rolled")
    s.press(K.B_HOLD1, K.B_HOLD1 + 1, K.B_HOLD1 + 3)
    s.shot("play_held")
    s.press(K.B_OK)
    s.shot("card_p1")
    s.press(K.B_DOWN, K.B_DOWN, K.B_DOWN)
    s.shot("card_p2")
    for _ in range(20):
        if app.screen.rows[app.screen.row] == 12:  # Chance: points
            break
        s.press(K.B_DOWN)
    set_dice(app, (1, 2, 2, 4, 6))
    s.press(K.B_UP, K.B_UP)  # Large straight: 0
    s.press(K.B_OK)
    s.shot("card_confirm_zero")
    s.press(K.B_MENU, K.B_MENU)
    s.shot("menu")
    s.item(menus.M_SCORES)
    s.press(K.B_OK)
    s.shot("scores")
    s.press(K.B_DOWN, K.B_DOWN)
    s.shot("scores_grid")
    s.press(K.B_MENU, K.B_MENU)
    # score a full house, then watch the CPU
    set_dice(app, (3, 3, 5, 3, 5))
    s.press(K.B_OK)
    s.shot("card_fullhouse")
    s.press(K.B_OK)
    s.shot("handover_cpu")
    s.d.run_ms(1300)
    s.d.run_ms(700)
    s.shot("play_cpu")
    # the end of a game: finish it quickly through the engine, keep the UI honest
    finish(app)
    s.shot("game_over")
    s.press(K.B_OK)
    s.shot("ratings")
    s.press(K.B_MENU)  # back to the summary, then its menu: play again, or the title
    s.press(K.B_MENU)
    s.shot("menu_over")
    s.item(menus.Menu.LABELS.index("Quit to title"))
    s.press(K.B_OK)
    s.item(menus.T_RECORDS)
    s.press(K.B_OK)
    s.shot("records")
    s.press(K.B_DOWN)
    s.shot("records_names")

    # game over with the coach on "Hints+tips": give-aways per seat and the costliest move
    sc = Shots(FULL)
    sc.start(2, coach=2).roll()
    set_dice(sc.app, (6, 6, 6, 6, 6))
    sc.app.show(sc.app.turn.score(12))  # Chance
    sc.shot("handover_tip")  # a costly box: the coach's two rows wait for a key
    finish(sc.app)
    sc.shot("game_over_coach")
    sc = None  # its heap to the next game
    gc.collect()

    # a 4-button build: the cursor mode with hints
    s4 = Shots(FOUR)
    app = s4.app
    s4.start(1, coach=1)
    s4.shot("four_ready")
    s4.press(K.B_OK)  # the cursor starts on Roll
    s4.d.run_ms(300)
    set_dice(app, (6, 2, 6, 1, 6), 0)
    s4.press(K.B_DOWN, K.B_DOWN)
    s4.press(K.B_OK)  # hold die 3
    s4.shot("four_cursor")
    for _ in range(5):
        s4.press(K.B_DOWN)
    s4.press(K.B_OK)
    s4.shot("four_hint")

    # a solo game with the coach on "Hints+tips": the tip stays on the play screen, and
    # game over has no winner to name
    s = sc = s4 = app = None  # the games above leave the heap to the ones below
    gc.collect()
    so = Shots(FULL)
    app = so.app
    g = so.start(1, coach=2)
    g.roll()
    set_dice(app, (6, 6, 6, 6, 6))
    app.show(app.turn.score([b[1] for b in g.rs.boxes].index("CH")))  # a Yahtzee wasted in Chance
    so.shot("play_tip")
    card = app.go("card")  # Menu held on a box: the box in words
    card.row = card.rows.find(bytes(([b[0] for b in g.rs.boxes].index("Small straight"),)))
    so.d.run_ms(40)  # the card's frame, then its quiet pass loads the help
    so.d.press(K.B_MENU, hold=800)
    so.shot("box_help")
    card = None
    finish(app)
    so.shot("game_over_solo")

    # Casino seats the players at random: the first hand-over says who starts
    sr = Shots(FULL)
    sr.start(3, rid=2, humans=2)  # Casino 5
    sr.shot("handover_drawn")
    sr.app.go("scores")  # the standings: each wallet opens at 100, the bets in the pot
    sr.shot("scores_casino")
    sr.press(K.B_MENU)
    card = sr.app.go("card")  # the card's last page: the wallet row
    card.row = len(card.rows) - 2
    sr.shot("card_casino")
    finish(sr.app)
    sr.shot("game_over_casino")
    rec = sr.app.records
    sr.app.show("records")
    sr.press(K.B_UP)  # the last page: every wallet
    sr.shot("records_wallets")
    rec.put16(rec.wallet(0)[1] - 3, 3)  # a wallet short of the bet: the bank fills it
    sr.app.home()
    sr.item(menus.T_NEW)
    sr.press(K.B_OK)
    sr.item(newgame.R_START)
    sr.press(K.B_OK)
    sr.shot("bank")
    sr = card = rec = None
    gc.collect()
    sx = Shots(FULL)  # Deluxe: the roll-off before the first turn
    sx.start(3, rid=5, humans=2)
    sx.shot("rolloff")
    so = sx = app = g = None
    gc.collect()

    # boot: a corrupt save means a note, then the title; Menu held: diagnostics
    class BadStore:
        last_error = ""

        def load(self, kind, check=None):
            self.last_error = "save corrupt: lost" if kind == "game" else ""
            return None

        def write(self, kind, payload):  # (every save fails at its first half)
            self.last_error = "not saved: flash full"
            return False

        def delete(self, kind):
            return True

    sb = Shots(FULL, BadStore())
    sb.shot("boot_corrupt")
    sd = Shots(FULL, None, 1 << K.B_MENU)
    from picoyacht import diag

    # Free heap and versions depend on the interpreter: pin them for a stable picture.
    diag.heap_free = lambda: 123456
    diag.versions = lambda: ("1.24.1", "v6.3 armv6m")
    sd.board.raw = 1 << K.B_OK
    sd.d.run_ms(1100)
    sd.app.dirty = True
    sd.shot("diagnostics")


if __name__ == "__main__":
    main()
    sys.stdout.write("")
