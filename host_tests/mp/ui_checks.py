"""UI behaviours checked on the MicroPython unix port (run by host_tests/test_app.py).

Usage: micropython ui_checks.py <check>   -> prints "PASS <check> ..." or raises.
"""

import sys

from board_sim import FOUR, FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht.store import Store

from allocs import allocated
from fakefs import FakeFs


def rig(present=FULL, store=None, boot=0, entropy=b"\x2a\x00\x00\x00"):
    b = HeadlessBoard(present, store, entropy, boot)
    r = A.Runner(b)
    d = Driver(b, r)
    d.run_ms(30)
    return b, r, d, r.app


def new_game(d, app, nplayers=2, human_all=True):
    d.press(A.B_OK) if app.items[app.sel] == A.T_NEW else None
    if app.state == A.S_TITLE:
        while app.items[app.sel] != A.T_NEW:
            d.press(A.B_DOWN)
        d.press(A.B_OK)
    s = app.settings
    while s.nplayers != nplayers:
        pick(d, app, A.R_PLAYERS)
    if human_all:
        for seat in range(nplayers):
            while s.kinds[seat]:
                pick(d, app, A.R_KIND + seat)
    pick(d, app, A.R_START)
    if app.state == A.S_HANDOVER:
        d.press(A.B_OK)
    assert app.state == A.S_PLAY


def pick(d, app, code):
    for _ in range(40):
        if app.items[app.sel] == code:
            break
        d.press(A.B_DOWN)
    d.press(A.B_OK)


def check_alloc():
    """The steady state allocates nothing: idle loop passes, cursor moves, page flips."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.press(A.B_ROLL)
    d.run_ms(400)
    # warm up every path once (first calls may intern or grow things)
    for btn in (A.B_UP, A.B_DOWN, A.B_OK, A.B_UP, A.B_DOWN, A.B_MENU):
        d.press(btn)
    assert app.state == A.S_PLAY, A.STATE_NAMES[app.state]
    idle = allocated(r.step, 200)
    ev_down = (1 << 4) | A.B_DOWN
    ev_up = (1 << 4) | A.B_UP

    def move():
        app.event(ev_down, b.t)
        app.render()
        app.event(ev_up, b.t)
        app.render()

    move()
    play_moves = allocated(move, 50)
    d.press(A.B_OK)  # the card
    assert app.state == A.S_CARD
    d.press(A.B_DOWN)
    d.press(A.B_UP)
    card_moves = allocated(move, 50)

    def flip():  # cross page boundaries: 8 rows down and back
        for _ in range(8):
            app.event(ev_down, b.t)
            app.render()
        for _ in range(8):
            app.event(ev_up, b.t)
            app.render()

    flip()
    flips = allocated(flip, 5)
    # a whole button press through the debouncer, in the loop
    def press_cycle():
        b.raw = 1 << A.B_DOWN
        for _ in range(8):
            r.step()
        b.raw = 0
        for _ in range(8):
            r.step()
        b.raw = 1 << A.B_UP
        for _ in range(8):
            r.step()
        b.raw = 0
        for _ in range(8):
            r.step()

    press_cycle()
    presses = allocated(press_cycle, 10)
    print("PASS alloc idle=%d play_moves=%d card_moves=%d flips=%d presses=%d" % (
        idle, play_moves, card_moves, flips, presses))
    assert idle == 0 and play_moves == 0 and card_moves == 0 and flips == 0 and presses == 0


def score_one(d, app):
    """Roll and score the cursor's default (best) box."""
    d.press(A.B_ROLL)
    d.run_ms(300)
    d.press(A.B_OK)
    assert app.state == A.S_CARD
    d.press(A.B_OK)
    if app.confirm:
        d.press(A.B_OK)


def check_resume():
    """Saved after every box; after a power cut the device offers to resume that game."""
    fs = FakeFs()
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 1)
    for _ in range(3):
        score_one(d, app)
    g = app.game
    snap = g.snapshot()
    assert app.save_msg == "", app.save_msg
    # power cut: a new boot on what survived
    b2, r2, d2, app2 = rig(FULL, Store(fs.reboot(), "/saves"), entropy=b"\x07\x00\x00\x00")
    assert app2.state == A.S_MESSAGE and app2.msg_title == "Saved game", app2.msg_title
    d2.press(A.B_OK)
    assert app2.state == A.S_PLAY, A.STATE_NAMES[app2.state]
    assert app2.game.snapshot() == snap
    print("PASS resume turn=%d" % app2.game.turn)


def check_corrupt():
    """Corrupt or missing saves: a fresh start with a message, never a crash."""
    fs = FakeFs()
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 1)
    score_one(d, app)
    for path in list(fs.files):
        data = fs.files[path]
        for i in range(16, len(data)):
            data[i] ^= 0x5A
    b2, r2, d2, app2 = rig(FULL, Store(fs.reboot(), "/saves"))
    assert app2.state == A.S_MESSAGE and app2.msg_title == "Fresh start", app2.msg_title
    d2.press(A.B_OK)
    assert app2.state == A.S_TITLE
    assert app2.items[0] == A.T_NEW  # nothing to resume
    # garbage that passes the store's checksum but not the game's own checks
    fs3 = FakeFs()
    st = Store(fs3, "/saves")
    st.save("game", b"PY\x01junk")
    st.save("settings", b"S\x01\xff")
    st.save("records", b"nonsense")
    b3, r3, d3, app3 = rig(FULL, Store(fs3.reboot(), "/saves"))
    assert app3.state == A.S_MESSAGE, A.STATE_NAMES[app3.state]
    d3.press(A.B_OK)
    assert app3.state == A.S_TITLE
    print("PASS corrupt notes=%d" % len(app3.msg_lines))


def check_full_flash():
    """A full flash: the game goes on, with a visible "not saved"."""
    fs = FakeFs(capacity=40)
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 2)
    score_one(d, app)
    assert app.save_msg.startswith("not saved"), app.save_msg
    assert app.state == A.S_HANDOVER
    d.press(A.B_OK)
    assert app.state == A.S_PLAY
    frame = d.frame()
    # the "!" mark sits left of the total in the header: some column there is dark
    assert app.save_msg and frame[0:128] != bytes(128)
    score_one(d, app)
    assert app.game.turn == 2
    print("PASS full_flash " + app.save_msg)


def check_idle():
    """Dim after 30 s, blank after 2 min; the waking press does nothing else."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.run_ms(29000)
    assert app.power == A.AWAKE
    d.run_ms(1500)
    assert app.power == A.DIM and b.i2c.contrast == A.CONTRAST_DIM
    d.run_ms(90000)
    assert app.power == A.BLANK and not b.i2c.on
    g = app.game
    d.press(A.B_ROLL)  # wakes only
    assert app.power == A.AWAKE and b.i2c.on and g.rolls_used == 0
    d.press(A.B_ROLL)
    d.run_ms(300)
    assert g.rolls_used == 1
    # dim, then a long press of Roll: wakes, and neither its press nor its LONG acts
    d.run_ms(31000)
    assert app.power == A.DIM
    d.press(A.B_ROLL, hold=1500)
    assert app.power == A.AWAKE and g.rolls_used == 1
    print("PASS idle")


def check_anim():
    """The roll animation never swallows input: a press during it acts at once."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.press(A.B_ROLL, hold=20, gap=5)
    assert app.anim, "animation should be running"
    g = app.game
    d.press(A.B_HOLD1, hold=20, gap=5)
    assert not app.anim and g.held == 1
    d.run_ms(300)
    t0 = b.t
    d.press(A.B_ROLL, hold=15, gap=0)
    assert g.rolls_used == 2 and b.t - t0 <= 20
    print("PASS anim")


def check_mash(seed):
    """Random button mashing on every screen: no fault, no lost game, state consistent."""
    b, r, d, app = rig(FOUR if seed & 1 else FULL)
    new_game(d, app, 1 + seed % 3)
    x = seed * 7919 + 1
    faults = 0
    for _ in range(1500):
        x = (x * 75 + 74) % 65537
        btn = (A.B_OK, A.B_OK, A.B_OK, A.B_ROLL, A.B_DOWN)[x % 5] if x & 8 else x % A.NBUTTONS
        hold = 10 + (x >> 4) % 90
        gap = (x >> 2) % 50
        d.press(btn, hold, gap)
        g = app.game
        if g is not None:
            assert 0 <= g.turn <= g.total_turns
    faults = b.faults
    assert faults == 0
    print("PASS mash seed=%d state=%s turn=%s" % (
        seed, A.STATE_NAMES[app.state], app.game.turn if app.game else "-"))


def check_display_dead():
    """A display that stops answering never stops the game."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    b.i2c.fail = True
    score_one(d, app)
    assert app.game.turn == 1
    b.i2c.fail = False
    d.press(A.B_UP)
    print("PASS display_dead")


def check_diag():
    b, r, d, app = rig(FULL, None, 1 << A.B_MENU)
    assert app.state == A.S_DIAG
    d.press(A.B_HOLD1 + 2)
    assert app.diag_count >= 1
    d.press(A.B_MENU, hold=800)
    assert app.state == A.S_TITLE
    print("PASS diag")


def check_demo():
    """All-CPU demo runs to the end on its own; a key skips a CPU turn."""
    b, r, d, app = rig()
    while app.items[app.sel] != A.T_DEMO:
        d.press(A.B_DOWN)
    d.press(A.B_OK)
    g = app.game
    d.run_ms(9000)
    t = g.turn
    assert t >= 1
    d.press(A.B_OK)  # skip
    for _ in range(400):
        if app.state == A.S_OVER:
            break
        d.run_ms(2000)
    assert app.state == A.S_OVER, A.STATE_NAMES[app.state]
    print("PASS demo turns=%d" % g.turn)


def check_coach():
    """Coach on "Hints+tips": every seat's give-aways are counted, a CPU's too, and game
    over names the costliest move of the game."""
    b, r, d, app = rig()
    app.settings.coach = 2
    new_game(d, app, 2, human_all=True)
    app.game.kinds[1] = 1  # seat 1 plays as an Easy CPU from here on
    g = app.game
    g.roll()
    chance = [bx[1] for bx in g.rs.boxes].index("CH")
    g.dice[:] = bytes((6, 6, 6, 6, 6))  # a Yahtzee wasted in Chance: a costly move
    app._score(chance)
    assert app.given[0] > 0 and app.worst is not None and app.worst[1] == 0, app.worst
    assert app.worst[3] == chance and app.worst[2] == 1
    while not g.over:  # the rest of the game through the app's own scoring path
        if not g.rolls_used:
            g.roll()
        app._score(A._best_box(g))
    assert app.state == A.S_OVER
    assert app.proficiency[0] == app.given[0] and app.proficiency[1] == app.given[1] > 0
    assert app.worst[0] >= max(1, app.given[0] // 13)
    app.render()
    assert d.frame()[7 * 128:8 * 128] != bytes(128)  # the "Worst ..." line is drawn
    print("PASS coach worst=%r given=%r" % (app.worst, app.given))


def main(argv):
    name = argv[0]
    if name == "mash":
        check_mash(int(argv[1]))
    else:
        globals()["check_" + name]()


if __name__ == "__main__":
    main(sys.argv[1:])
