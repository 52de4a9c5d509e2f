"""UI behaviours checked on the MicroPython unix port (run by host_tests/test_app.py).

Usage: micropython ui_checks.py <check>   -> prints "PASS <check> ..." or raises.
"""

import gc
import sys

from board_sim import FOUR, FULL, Driver, HeadlessBoard, finish

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import heap, menus, policy
from picoyacht.debounce import PRESS
from picoyacht.saves import Records
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
    from picoyacht import newgame  # not held: the app drops it when the game starts

    d.press(K.B_OK) if app.screen.items[app.screen.sel] == menus.T_NEW else None
    if app.screen.NAME == "title":
        while app.screen.items[app.screen.sel] != menus.T_NEW:
            d.press(K.B_DOWN)
        d.press(K.B_OK)
    s = app.settings
    while s.nplayers != nplayers:
        d.pick(newgame.R_PLAYERS)
    if human_all:
        for seat in range(nplayers):
            while s.kinds[seat]:
                d.pick(newgame.R_KIND + seat)
    d.pick(newgame.R_START)
    if app.screen.NAME == "handover":
        d.press(K.B_OK)
    assert app.screen.NAME == "play"


def check_alloc():
    """The steady state allocates nothing: idle loop passes, cursor moves, page flips."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.press(K.B_ROLL)
    d.run_ms(400)
    # warm up every path once (first calls may intern or grow things)
    for btn in (K.B_UP, K.B_DOWN, K.B_OK, K.B_UP, K.B_DOWN, K.B_MENU):
        d.press(btn)
    assert app.screen.NAME == "play", app.screen.NAME
    idle = allocated(r.step, 200)
    ev_down = (1 << 4) | K.B_DOWN
    ev_up = (1 << 4) | K.B_UP

    def move():
        app.event(ev_down, b.t)
        app.render()
        app.event(ev_up, b.t)
        app.render()

    move()
    play_moves = allocated(move, 50)
    d.press(K.B_OK)  # the card
    assert app.screen.NAME == "card"
    d.press(K.B_DOWN)
    d.press(K.B_UP)
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
    # whole button presses through the debouncer, in the loop: Down, then Up
    cycle = (1 << K.B_DOWN, 0, 1 << K.B_UP, 0)

    def press_cycle():
        for raw in cycle:
            b.raw = raw
            for _ in range(8):
                r.step()

    press_cycle()
    presses = allocated(press_cycle, 10)

    # A box scored from the card: the OK's pass (a zero box's question too) and its frame.
    # The log line and the save follow in passes of their own (Turn.after_move).
    ev_ok = (1 << 4) | K.B_OK
    g = app.turn.game

    def ok_pass():
        app.event(ev_ok, b.t)
        app.render()

    scoring = 0
    for turn in range(2):
        assert app.screen.NAME == "card", app.screen.NAME
        while g.turn == turn:
            scoring += allocated(ok_pass, 1)
        assert app.screen.NAME == "play", app.screen.NAME
        d.run_ms(2000)  # the note's time, the log line and the save
        d.press(K.B_ROLL)
        d.run_ms(400)
        d.press(K.B_OK)

    # The menu (first opened here), its move to the scores, the scores (loaded ahead, in a
    # quiet pass), back twice, then a box whose pass also drops the scores' module.
    d.press(K.B_MENU)
    assert app.screen.NAME == "play", app.screen.NAME
    key = [0]

    def key_pass():
        app.event((1 << 4) | key[0], b.t)
        app.render()

    menus = 0
    for btn in (K.B_MENU, K.B_DOWN, K.B_OK, K.B_DOWN, K.B_MENU, K.B_MENU, K.B_OK):
        key[0] = btn
        menus += allocated(key_pass, 1)
        d.run_ms(200)
    assert app.screen.NAME == "card" and "picoyacht.scores" in sys.modules
    turn = g.turn
    while g.turn == turn:
        menus += allocated(ok_pass, 1)
    assert "picoyacht.scores" not in sys.modules
    print("PASS alloc idle=%d play_moves=%d card_moves=%d flips=%d presses=%d scoring=%d "
          "menus=%d" % (idle, play_moves, card_moves, flips, presses, scoring, menus))
    assert idle == 0 and play_moves == 0 and card_moves == 0 and flips == 0 and presses == 0
    assert scoring == 0 and menus == 0


def check_alloc_help():
    """The box help costs nothing to open or close, the first time too: its module and
    its rows load in a quiet pass once the card shows, and each opening copies the box's
    words into those rows. Menu's press, its long press and release, OK back to the card,
    over every row of the card (the upper bonus's rows compose numbers)."""
    sys.modules.pop("picoyacht.box_help", None)
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.press(K.B_ROLL)
    d.run_ms(400)
    d.press(K.B_OK)  # the card
    d.run_ms(100)
    assert app.screen.NAME == "card" and "picoyacht.box_help" in sys.modules
    card = app.screen
    row = [0]
    # Menu's press, long press and release, then OK (debounce: press 1, release 2, long 3),
    # made here: a tuple written in the loop would be built, and counted, at every opening
    steps = ((1 << 4 | K.B_MENU, "card"), (3 << 4 | K.B_MENU, "box_help"),
             (2 << 4 | K.B_MENU, "box_help"), (1 << 4 | K.B_OK, "card"))

    def opening():
        card.row = row[0]
        for ev, then in steps:
            app.event(ev, b.t)
            app.render()
            assert app.screen.NAME == then, (ev, app.screen.NAME)
        row[0] = (row[0] + 1) % len(card.rows)

    first = allocated(opening, 1)
    every = allocated(opening, len(card.rows))
    print("PASS alloc_help first=%d every_row=%d" % (first, every))
    assert first == 0 and every == 0


def check_alloc_casino():
    """Casino's wallets cost nothing to draw: the card's pages down to the Wallet row and
    back, and the scores' pages (standings with the wallet column, then the grid).
    Breaks if the wallet's number is made through a string or a lookup by name."""
    b, r, d, app = rig()
    app.settings.rid = 2  # Casino 5
    new_game(d, app, 2)
    d.press(K.B_ROLL)
    d.run_ms(400)
    d.press(K.B_OK)  # the card
    assert app.screen.NAME == "card", app.screen.NAME
    rows = len(app.screen.rows)

    ev_down = (1 << 4) | K.B_DOWN
    ev_up = (1 << 4) | K.B_UP

    def flip(n=rows):  # every row or page down, then back up
        for _ in range(n):
            app.event(ev_down, b.t)
            app.render()
        for _ in range(n):
            app.event(ev_up, b.t)
            app.render()

    flip()
    card = allocated(flip, 3)
    d.press(K.B_MENU)  # the play screen, then the menu's Scores
    d.press(K.B_MENU)
    d.press(K.B_DOWN)
    d.press(K.B_OK)
    assert app.screen.NAME == "scores", app.screen.NAME
    n = app.screen.pages()
    flip(n=n)
    scores = allocated(lambda: flip(n=n), 3)
    print("PASS alloc_casino card=%d scores=%d" % (card, scores))
    assert card == 0 and scores == 0


def score_one(d, app):
    """Roll and score the cursor's default (best) box."""
    d.press(K.B_ROLL)
    d.run_ms(300)
    d.press(K.B_OK)
    assert app.screen.NAME == "card"
    d.press(K.B_OK)
    if app.screen.NAME == "card" and app.screen.confirm:
        d.press(K.B_OK)


def check_resume():
    """Saved after every box; after a power cut the device offers to resume that game."""
    fs = FakeFs()
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 1)
    for _ in range(3):
        score_one(d, app)
    g = app.turn.game
    snap = g.snapshot()
    assert app.save_msg == "", app.save_msg
    # power cut: a new boot on what survived
    b2, r2, d2, app2 = rig(FULL, Store(fs.reboot(), "/saves"), entropy=b"\x07\x00\x00\x00")
    assert app2.screen.NAME == "message" and app2.screen.title == "Saved game", app2.screen.title
    d2.press(K.B_OK)
    assert app2.screen.NAME == "play", app2.screen.NAME
    assert app2.turn.game.snapshot() == snap
    print("PASS resume turn=%d" % app2.turn.game.turn)


def check_frame_first():
    """A scored box is on the panel before the flash is touched: the pass that scores draws
    and writes nothing; the next pass logs the box and collects the heap, the one after
    writes the save's file, the one after that commits it (its renames), none of them
    drawing. The saved game is the scored one."""
    fs = FakeFs()
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 1)
    d.press(K.B_ROLL)
    d.run_ms(300)
    d.press(K.B_OK)
    assert app.screen.NAME == "card"
    writes = fs.counts.get("rename", 0)
    b.raw |= 1 << K.B_OK
    for _ in range(20):  # the press is debounced over a few samples
        frames, boxes = app.frames, b.boxes
        r.step()
        if app.turn.game.turn:
            break
    assert app.turn.game.turn == 1, "the box was not scored"
    assert app.frames == frames + 1 and bytes(b.i2c.ram) == bytes(app.panel.disp.buffer)
    assert fs.counts.get("rename", 0) == writes and b.boxes == boxes, "saved before the frame"
    frames = app.frames
    r.step()
    assert b.boxes == boxes + 1 and fs.counts.get("rename", 0) == writes
    opened = fs.counts.get("open_w", 0)
    r.step()
    assert fs.counts.get("open_w", 0) > opened, "not written on the second pass"
    assert fs.counts.get("rename", 0) == writes, "written and committed in one pass"
    r.step()
    assert fs.counts.get("rename", 0) > writes, "not committed on the third pass"
    assert app.frames == frames
    b.raw = 0
    d.run_ms(100)
    saved = app.store.load("game")
    assert bytes(saved) == bytes(app.turn.game.snapshot()), "the save is not the scored game"
    print("PASS frame_first")


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
    assert app2.screen.NAME == "message" and app2.screen.title == "Fresh start", app2.screen.title
    d2.press(K.B_OK)
    assert app2.screen.NAME == "title"
    assert app2.screen.items[0] == menus.T_NEW  # nothing to resume
    # garbage that passes the store's checksum but not the game's own checks
    fs3 = FakeFs()
    st = Store(fs3, "/saves")
    st.save("game", b"PY\x01junk")
    st.save("settings", b"S\x01\xff")
    st.save("records", b"nonsense")
    b3, r3, d3, app3 = rig(FULL, Store(fs3.reboot(), "/saves"))
    assert app3.screen.NAME == "message", app3.screen.NAME
    msg = app3.find("message")
    said = " ".join(msg.lines)  # the note wraps at spaces
    for why in ("settings: save refused (format): lost", "records: save refused (format): lost",
                "game: save refused (checksum mismatch): lost"):
        assert why in said, said
    # more lines than the screen holds: Down scrolls to the last, and back
    first = d3.frame()
    for _ in range(len(msg.lines)):
        d3.press(K.B_DOWN)
    assert msg.top == len(msg.lines) - 5 > 0 and d3.frame() != first
    for _ in range(len(msg.lines)):
        d3.press(K.B_UP)
    assert msg.top == 0 and d3.frame() == first
    d3.press(K.B_OK)
    assert app3.screen.NAME == "title"
    # the records' newest copy refused, its backup good: the backup, and why
    del b, r, d, app, b2, r2, d2, app2, b3, r3, d3, app3, st
    gc.collect()  # (out of heap, the good copy would be refused too)
    fs4 = FakeFs()
    st = Store(fs4, "/saves")
    st.save("records", Records().pack())
    st.save("records", b"nonsense")
    b4, r4, d4, app4 = rig(FULL, Store(fs4.reboot(), "/saves"))
    said = " ".join(app4.find("message").lines)
    assert said == "records: save refused (format): using backup", said
    print("PASS corrupt notes=%d" % len(msg.lines))


def check_full_flash():
    """A full flash: the game goes on, with a visible "not saved"."""
    fs = FakeFs(capacity=40)
    b, r, d, app = rig(FULL, Store(fs, "/saves"))
    new_game(d, app, 2)
    score_one(d, app)
    assert app.save_msg.startswith("not saved"), app.save_msg
    assert app.screen.NAME == "handover"
    d.press(K.B_OK)
    assert app.screen.NAME == "play"
    frame = d.frame()
    # the "!" mark sits left of the total in the header: some column there is dark
    assert app.save_msg and frame[0:128] != bytes(128)
    score_one(d, app)
    assert app.turn.game.turn == 2
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
    g = app.turn.game
    d.press(K.B_ROLL)  # wakes only
    assert app.power == A.AWAKE and b.i2c.on and g.rolls_used == 0
    d.press(K.B_ROLL)
    d.run_ms(300)
    assert g.rolls_used == 1
    # dim, then a long press of Roll: wakes, and neither its press nor its LONG acts
    d.run_ms(31000)
    assert app.power == A.DIM
    d.press(K.B_ROLL, hold=1500)
    assert app.power == A.AWAKE and g.rolls_used == 1
    print("PASS idle")


def check_anim():
    """The roll animation never swallows input: a press during it acts at once."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    d.press(K.B_ROLL, hold=20, gap=5)
    assert app.screen.anim, "animation should be running"
    g = app.turn.game
    d.press(K.B_HOLD1, hold=20, gap=5)
    assert not app.screen.anim and g.held == 1
    d.run_ms(300)
    t0 = b.t
    d.press(K.B_ROLL, hold=15, gap=0)
    assert g.rolls_used == 2 and b.t - t0 <= 20
    # a roll with a die held: while the others flicker, the held die stays as it was
    # (solid, with its bar), and no die moves: only the rolled dice's pips change
    d.run_ms(300)
    assert g.held == 1 and g.rolls_left
    from picoyacht.play import dice_x

    n = len(g.dice)
    before = d.frame()
    changed = bytearray(128)  # columns of pages 2-4 (the dice and the bars) that changed
    used = g.rolls_used
    b.raw |= 1 << K.B_ROLL
    for _ in range(200):  # the press, the animation's frames and the faces it lands on
        r.step()
        now = d.frame()
        for x in range(128):
            for page in range(2, 5):
                if now[page * 128 + x] != before[page * 128 + x]:
                    changed[x] = 1
        if g.rolls_used != used:
            b.raw = 0
            if not app.screen.anim:
                break
    assert g.rolls_used == used + 1 and not app.screen.anim, "no roll, or it never ended"
    x0 = dice_x(n, 0)
    assert not any(changed[x0:x0 + 17]), "the held die changed while the others rolled"
    for i in range(1, n):
        x = dice_x(n, i)
        assert not changed[x] and not changed[x + 16], "die %d moved" % i
    assert any(changed), "no die changed face"
    print("PASS anim")


def check_mash(seed):
    """Random button mashing on every screen: no fault, no lost game, state consistent."""
    b, r, d, app = rig(FOUR if seed & 1 else FULL)
    new_game(d, app, 1 + seed % 3)
    x = seed * 7919 + 1
    faults = 0
    for _ in range(1500):
        x = (x * 75 + 74) % 65537
        btn = (K.B_OK, K.B_OK, K.B_OK, K.B_ROLL, K.B_DOWN)[x % 5] if x & 8 else x % K.NBUTTONS
        hold = 10 + (x >> 4) % 90
        gap = (x >> 2) % 50
        d.press(btn, hold, gap)
        g = app.turn.game
        if g is not None:
            assert 0 <= g.turn <= g.rs.nboxes * g.nseats
    faults = b.faults
    assert faults == 0
    print("PASS mash seed=%d state=%s turn=%s" % (
        seed, app.screen.NAME, app.turn.game.turn if app.turn.game else "-"))


def check_display_dead():
    """A display that stops answering never stops the game."""
    b, r, d, app = rig()
    new_game(d, app, 1)
    b.i2c.fail = True
    score_one(d, app)
    assert app.turn.game.turn == 1
    b.i2c.fail = False
    d.press(K.B_UP)
    print("PASS display_dead")


def check_diag():
    b, r, d, app = rig(FULL, None, 1 << K.B_MENU)
    assert app.screen.NAME == "diag"
    d.press(K.B_HOLD1 + 2)
    assert app.screen.presses >= 1
    d.press(K.B_MENU, hold=800)
    assert app.screen.NAME == "title"
    print("PASS diag")


def check_demo():
    """All-CPU demo runs to the end on its own; a key skips a CPU turn."""
    b, r, d, app = rig()
    while app.screen.items[app.screen.sel] != menus.T_DEMO:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    g = app.turn.game
    d.run_ms(9000)
    t = g.turn
    assert t >= 1
    d.press(K.B_OK)  # skip
    for _ in range(400):
        if app.screen.NAME == "over":
            break
        d.run_ms(2000)
    assert app.screen.NAME == "over", app.screen.NAME
    print("PASS demo turns=%d" % g.turn)


def check_coach():
    """Coach on "Hints+tips": every seat's give-aways are counted, a CPU's too, and game
    over names the costliest move of the game."""
    b, r, d, app = rig()
    app.settings.coach = 2
    new_game(d, app, 2, human_all=True)
    app.turn.game.kinds[1] = 1  # seat 1 plays as an Easy CPU from here on
    g = app.turn.game
    g.roll()
    chance = [bx[1] for bx in g.rs.boxes].index("CH")
    g.dice[:] = bytes((6, 6, 6, 6, 6))  # a Yahtzee wasted in Chance: a costly move
    app.show(app.turn.score(chance))
    ch = app.turn.coach
    worst = ch.worst()
    assert ch.given(0) > 0 and worst is not None and worst[1] == 0, worst
    assert worst[3] == chance and worst[2] == 1
    while not g.over:  # the rest of the game through the app's own scoring path
        if not g.rolls_used:
            g.roll()
        app.show(app.turn.score(policy.best_box(g)))
    d.run_ms(100)  # the end's passes: the records on flash, then the results
    assert app.screen.NAME == "over"
    over = app.screen
    assert over.judged and ch.given(1) > 0
    worst = ch.worst()
    assert worst[0] >= max(1, ch.given(0) // 13)
    app.render()
    assert d.frame()[7 * 128:8 * 128] != bytes(128)  # the "Worst ..." line is drawn
    print("PASS coach worst=%r given=%r" % (worst, ch.prof.totals))


def package_modules():
    """The package's modules imported now, by name."""
    return [m for m in sys.modules if m.startswith("picoyacht.")]


def to_key_pass(b, r, app, btn):
    """Holds btn down through loop passes until one draws a frame: the key's pass. Its
    release is the caller's. The frame count before it."""
    frames = app.frames
    b.raw |= 1 << btn
    for _ in range(40):
        r.step()
        if app.frames != frames:
            break
    return frames


def step_noting_loads(r, app, loads, sweeps=None):
    """One loop pass; if it imported package modules, (their names, whether it drew a
    frame) goes onto loads; `sweeps`: a list heap.sweep's collections append to, and a
    pass that collected puts ("swept", False) onto loads."""
    before = package_modules()
    frames = app.frames
    n = len(sweeps) if sweeps is not None else 0
    r.step()
    if sweeps is not None and len(sweeps) > n:
        loads.append(("swept", False))
    new = [k for k in package_modules() if k not in before]
    if new:
        loads.append((sorted(new), app.frames != frames))


def cpu_seat_turn(kind, store=None):
    """A 2-seat game whose seat 1 now plays as a CPU of `kind`, its turn come, with the CPU's
    modules out of the heap: (board, runner, app)."""
    b, r, d, app = rig(FULL, store)
    for m in ("picoyacht.dice", "picoyacht.engine", "picoyacht.engine_tables",
              "picoyacht.one_throw", "picoyacht.strategy", "picoyacht.strategy_table"):
        sys.modules.pop(m, None)
    assert gc.threshold() > 0  # between games the collector runs often (collect_often)
    new_game(d, app, 2, human_all=True)
    g = app.turn.game
    g.kinds[1] = kind
    g.roll()
    app.show(app.turn.score(policy.best_box(g)))  # its turn now
    return b, r, app


def noting_sweeps(sweeps):
    """heap.sweep, patched to append to `sweeps` each split it collects for; returns the
    real one, to put back."""
    sweep = heap.sweep

    def noting(split):
        if split == heap.DUE or split == heap.LITTER:
            sweeps.append(split)
        return sweep(split)

    heap.sweep = noting
    return sweep


def steps_noting_loads(r, app, done):
    """Loop passes (step_noting_loads, with heap.sweep's collections noted as "swept")
    until done(loads); the loads."""
    loads, sweeps = [], []
    sweep = noting_sweeps(sweeps)
    try:
        for _ in range(5000):
            step_noting_loads(r, app, loads, sweeps)
            if done(loads):
                break
    finally:
        heap.sweep = sweep
    return loads


def check_loading():
    """A CPU's modules (dice, engine tables, engine, strategy) and Expert's table module
    load in loop passes of their own, one module each, none of which draws: two imports in
    one pass outran a pass while a CPU plays on the .mpy layout. Each import follows a pass
    that collects the heap: on the .mpy layout, garbage left the import of a module no
    free run long enough for the qstr pool it needed. Expert's table comes first, while
    the hand-over shows: it says whether the seat plays exactly."""
    _, r, app = cpu_seat_turn(3)  # an Expert
    loads = steps_noting_loads(r, app, lambda loads: "picoyacht.strategy" in sys.modules)
    got = [mods for mods, _ in loads]
    got = got[got.index(["picoyacht.strategy_table"]):]  # (the move's save sweeps before)
    assert got == [
        ["picoyacht.strategy_table"], "swept", ["picoyacht.dice"], "swept",
        ["picoyacht.engine_tables"], "swept", ["picoyacht.one_throw"], "swept",
        ["picoyacht.engine"], "swept",
        ["picoyacht.strategy"]], loads
    assert not any(drew for _, drew in loads), loads
    assert gc.threshold() == -1  # in a game, only in the loop's own passes
    app.turn.coach.release()  # the game's end
    assert gc.threshold() > 0
    heap.collect_often(False)
    app.turn.quit()  # or a quit to the title, the game kept to resume
    assert gc.threshold() > 0
    print("PASS loading %r" % loads)


def check_loading_normal():
    """A Normal CPU (the coach judges it by Expert's table) loads the table after its
    modules: the table's module in a pass of its own, after a collecting pass, and the
    table read in another after one more: together they outran a pass while a CPU plays
    on the .mpy layout. Then Normal's estimate, in a pass of its own after one more
    collection: imported by the search's first step, it outlasted that pass."""
    _, r, app = cpu_seat_turn(2)  # a Normal
    read_with_import = []  # whether the pass that imported the table's module read it
    heap.forget("estimate")

    def done(loads):
        if not read_with_import and "picoyacht.strategy_table" in sys.modules:
            read_with_import.append(app.turn.coach._tbl_sought)
        # (the rig has no tables: the read finds none, and Normal estimates)
        return bool(read_with_import) and "picoyacht.estimate" in sys.modules

    loads = steps_noting_loads(r, app, done)
    assert read_with_import == [False], loads
    got = [mods for mods, _ in loads]
    got = got[got.index(["picoyacht.strategy"]):]
    assert got == [["picoyacht.strategy"], "swept", ["picoyacht.strategy_table"], "swept",
                   "swept", ["picoyacht.estimate"]], loads
    assert app.turn.coach._think is None  # the search had not begun
    assert not any(drew for _, drew in loads), loads
    print("PASS loading_normal %r" % loads)


def check_first_save():
    """A new game's first save, in the pass after its first frame, loads no module: the
    save's format comes with the game's start (Turn.start), so that pass only writes (the
    import made it a 54 ms pass on the emulated Pico's .mpy layout)."""
    heap.forget("snapshot")
    b, r, d, app = rig(FULL, Store(FakeFs(), "/saves"))
    assert "picoyacht.snapshot" not in sys.modules
    saves = []
    loaded = []  # whether the save's format was in before each pass that saved the game
    save, step = app.write, r.step  # (a save's first half: Turn's save starts there)

    def counting(kind, payload):
        saves.append(kind)
        return save(kind, payload)

    def noting():
        before = "picoyacht.snapshot" in sys.modules
        n = len(saves)
        step()
        if "game" in saves[n:]:
            loaded.append(before)

    app.write, r.step = counting, noting
    new_game(d, app, 1)
    d.run_ms(200)
    print("PASS first_save loaded=%s" % loaded)
    assert loaded[:1] == [True], loaded


def check_preload():
    """The screen a press most likely opens has its module loaded in a quiet pass of its
    own, once the frame that offers it is up: setup from the title, the scores from the
    in-game menu, the box help from the card. The press's pass then imports nothing (the
    import made opening the scores a 58 ms pass on the emulated Pico), and the module leaves
    the heap with the next show() that cannot reach it."""
    for m in ("picoyacht.newgame", "picoyacht.scores"):
        sys.modules.pop(m, None)
    b = HeadlessBoard(FULL)
    r = A.Runner(b)
    d = Driver(b, r)
    app = r.app
    loads = []

    def run(ms):
        end = b.t + ms
        while b.t < end:
            step_noting_loads(r, app, loads)

    def press(btn):
        b.raw = 1 << btn
        run(40)
        b.raw = 0
        run(40)

    run(100)
    assert app.screen.NAME == "title" and loads == [(["picoyacht.newgame"], False)], loads
    del loads[:]
    new_game(d, app, 1)
    d.press(K.B_ROLL)
    d.run_ms(400)
    assert "picoyacht.newgame" not in sys.modules  # gone with the title
    press(K.B_MENU)
    assert app.screen.NAME == "menu" and loads == [(["picoyacht.scores"], False)], loads
    del loads[:]
    press(K.B_DOWN)
    press(K.B_OK)
    assert app.screen.NAME == "scores" and loads == [], loads
    press(K.B_MENU)
    press(K.B_MENU)  # back to the game
    assert app.screen.NAME == "play"
    score_one(d, app)
    assert "picoyacht.scores" not in sys.modules  # gone with the box's show("play")
    sys.modules.pop("picoyacht.box_help", None)
    d.press(K.B_ROLL)
    d.run_ms(300)
    press(K.B_OK)  # the card: the box help's module next, in a pass that draws nothing
    assert app.screen.NAME == "card" and loads == [(["picoyacht.box_help"], False)], loads
    del loads[:]
    b.raw = 1 << K.B_MENU  # held: the box's help, with nothing left to load
    run(900)
    b.raw = 0
    run(40)
    assert app.screen.NAME == "box_help" and loads == [], loads
    press(K.B_OK)
    press(K.B_OK)  # the card's box: its show("play") drops the help's module
    if app.screen.NAME == "card" and app.screen.confirm:
        press(K.B_OK)
    assert app.screen.NAME != "card" and "picoyacht.box_help" not in sys.modules
    print("PASS preload")


def check_cpu_frame_after_save():
    """A CPU's box is drawn after its save: the pass that runs the CPU's step and scores
    draws nothing (with the next screen's whole frame as well, it outran a pass on the .mpy
    layout), the save's passes follow, drawing nothing, and then the hand-over's frame."""
    fs = FakeFs()
    b, r, app = cpu_seat_turn(1, Store(fs, "/saves"))  # an Easy: no search to think out
    g = app.turn.game
    for _ in range(5000):
        frames, renames = app.frames, fs.counts.get("rename", 0)
        r.step()
        if g.current == 0:
            break
    assert g.current == 0, "the CPU did not score"
    assert app.frames == frames, "the CPU's box was drawn in the pass that scored it"
    passes = 0
    while app.frames == frames and passes < 8:
        r.step()
        passes += 1
    assert app.frames == frames + 1, "no frame after the CPU's box"
    assert fs.counts.get("rename", 0) > renames, "drawn before the box's save"
    assert app.screen.NAME == "handover" and bytes(b.i2c.ram) == bytes(app.panel.disp.buffer)
    print("PASS cpu_frame_after_save passes=%d" % passes)


def _at_the_last_box():
    """A 1-seat game with Chance its one open box, on the card after a roll, every call
    of the app's saves logged as (pass, call, kind) against a pass counter."""
    b, r, d, app = rig(FULL, Store(FakeFs(), "/saves"))
    new_game(d, app, 1)
    g = app.turn.game
    chance = [bx[1] for bx in g.rs.boxes].index("CH")
    while g.rs.nboxes - g.turn > 1:
        if not g.rolls_used:
            g.roll()
        box = [x for x in range(g.rs.nboxes) if x != chance and not g.is_filled(0, x)][0]
        app.show(app.turn.score(box))
        d.run_ms(100)
    d.press(K.B_ROLL)
    d.run_ms(400)
    d.press(K.B_OK)
    assert app.screen.NAME == "card", app.screen.NAME
    log, passes = logged_saves(app)
    return b, r, app, g, log, passes


def logged_saves(app):
    """(log, passes): app's write, commit and delete append (passes[0], call, kind) to log;
    the caller counts the passes in passes[0]."""
    log, passes = [], [0]

    def logging(call, f):
        def logged(kind, *a):
            log.append((passes[0], call, kind))
            return f(kind, *a)
        return logged

    for call in ("write", "commit", "delete"):
        setattr(app, call, logging(call, getattr(app, call)))
    return log, passes


def check_end_after_save():
    """The last box is drawn as any other, in its own pass: the records' save (write, then
    commit, a pass each) and the game's delete come after it, and the results once both
    are on flash: their module in a quiet pass, their frame in the next. A key in between
    is spent, and its pass brings neither: the results come in the passes after it."""
    b, r, app, g, log, passes = _at_the_last_box()
    b.raw |= 1 << K.B_OK  # held: no release comes to finish the end in its own pass
    while not g.over and passes[0] < 200:
        frames = app.frames
        r.step()
        passes[0] += 1
    scored = passes[0]
    assert g.over and app.frames == frames + 1 and app.screen.NAME == "play", app.screen.NAME
    assert log == [], "the last box's pass wrote: %r" % log
    while app.screen.NAME != "over" and passes[0] < scored + 20:
        r.step()
        passes[0] += 1
    assert app.screen.NAME == "over", app.screen.NAME
    assert [e[1:] for e in log] == [("write", "records"), ("commit", "records"),
                                    ("delete", "game")], log
    assert log[0][0] < log[1][0] < passes[0], log  # a pass each, then the results
    b.raw &= ~(1 << K.B_OK)
    heap.forget("results")  # (this game brought it in: the next must bring it in anew)
    b, r, app, g, log, passes = _at_the_last_box()
    b.raw |= 1 << K.B_OK
    while not (g.over and len(log) == 3 and app.turn.saving == heap.IDLE) and passes[0] < 200:
        r.step()  # to the end on flash and swept, the results still to come
        passes[0] += 1
    assert app.screen.NAME == "play" and "picoyacht.results" not in sys.modules
    keys = []
    app.screen.event = lambda btn, kind: keys.append(btn)
    app.event(PRESS << 4 | K.B_MENU, app.now)  # a key now: spent, and its pass only reads it
    app.tick(app.now)
    assert keys == [] and "picoyacht.results" not in sys.modules, keys
    for _ in range(4):
        r.step()
    assert app.screen.NAME == "over" and keys == [], (app.screen.NAME, keys)
    print("PASS end_after_save passes=%d" % (passes[0] - scored))


def check_start_in_passes():
    """Setup's Start answers in its key's pass (setup's frame: "Starting the game...") and
    does nothing else there. The settings' save (write, then commit), setup's drop and the
    game's modules come after it, one step a pass and no frame, with the collector's own runs
    off (else one may fall inside an import's pass) and a collecting pass after the last,
    then the game; its first frame once its first save is on flash. A key in between is
    spent."""
    from picoyacht import newgame

    b, r, d, app = rig(store=Store(FakeFs(lfs=True), "/saves"))
    while app.screen.items[app.screen.sel] != menus.T_NEW:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    while app.settings.nplayers != 1:
        d.pick(newgame.R_PLAYERS)
    while app.settings.kinds[0]:
        d.pick(newgame.R_KIND)
    assert d.select(newgame.R_START)
    d.run_ms(100)
    log = logged_saves(app)[0]
    frames = to_key_pass(b, r, app, K.B_OK)
    assert app.turn.starting, "the game started in its key's pass"
    assert app.frames == frames + 1 and app.screen.NAME == "setup", app.screen.NAME
    assert log == [] and "picoyacht.coach" not in sys.modules, log
    b.raw &= ~(1 << K.B_OK)
    keys = []
    app.screen.event = lambda btn, kind: keys.append(btn)  # (setup's: a key now is spent)
    steps = []  # per pass: (saves, modules in, modules out, heap.sweep collected, threshold,
    # the game begun)
    before = package_modules()
    sweeps = []
    sweep = noting_sweeps(sweeps)
    try:
        while app.frames == frames + 1 and len(steps) < 200:
            n, k = len(log), len(sweeps)
            if len(steps) in (6, 10):  # Menu down, then up, mid-start
                b.raw ^= 1 << K.B_MENU
            r.step()
            now = package_modules()
            steps.append((log[n:], [m for m in now if m not in before],
                          [m for m in before if m not in now], len(sweeps) > k,
                          gc.threshold(), app.turn.game is not None))
            before = now
    finally:
        heap.sweep = sweep
    assert app.screen.NAME == "play" and keys == [], (app.screen.NAME, keys)
    saves = [e[1:] for st in steps for e in st[0]]
    assert saves == [("write", "settings"), ("commit", "settings"), ("write", "game"),
                     ("commit", "game")], saves
    busy = [st for st in steps if st[0] or st[1] or st[2]]
    assert all(len(st[0]) + len(st[1]) + (1 if st[2] else 0) <= 1 for st in busy), busy
    dropped = [i for i, st in enumerate(busy) if "picoyacht.newgame" in st[2]]
    loaded = [i for i, st in enumerate(busy) if st[1]]
    assert dropped and loaded and dropped[0] < loaded[0], busy
    imports = [i for i, st in enumerate(steps) if st[1]]
    assert all(steps[i][4] == -1 for i in imports), steps  # no collection inside an import
    begun = [i for i, st in enumerate(steps) if st[5]]  # the game is made on a swept heap
    assert any(st[3] for st in steps[imports[-1] + 1:begun[0]]), steps
    came = [m for st in busy for m in st[1]]
    # the card's module too, so that its first opening imports nothing; one seat: no hand-over
    assert "picoyacht.card" in came and "picoyacht.handover" not in came, came
    print("PASS start_in_passes passes=%d busy=%d" % (len(steps), len(busy)))


def _key_starts_in_passes(b, r, app, btn, first):
    """Presses btn, a key that starts a game, at the loop's own pace. Its pass draws the
    key's answer and does nothing else; the game's modules come one a pass after it, then
    the game and its first screen, `first`, after the last (if any came: a game left for
    the title keeps its screens' modules). (pass count, modules in)"""
    from picoyacht import screens

    game, screen = app.turn.game, app.screen
    before = package_modules()
    to_key_pass(b, r, app, btn)
    b.raw &= ~(1 << btn)
    assert app.turn.starting, "the game started in its key's pass"
    assert app.screen is screen and screens.starting(screen), app.screen.NAME
    assert app.turn.game is game and package_modules() == before, package_modules()
    steps = []  # per pass: (modules in, the first screen up)
    while app.screen.NAME != first and len(steps) < 200:
        r.step()
        now = package_modules()
        steps.append(([m for m in now if m not in before], app.screen.NAME == first))
        before = now
    assert app.screen.NAME == first and not app.turn.starting, (app.screen.NAME, steps)
    assert all(len(st[0]) <= 1 for st in steps), steps
    imports = [i for i, st in enumerate(steps) if st[0]]
    assert not imports or imports[-1] < len(steps) - 1, steps  # the game after the last import
    return len(steps), [m for st in steps for m in st[0]]


def check_other_starts_in_passes():
    """The title's Demo and Resume, game over's Play again and the boot's offer to resume
    start their game as setup's Start does (start_in_passes): the key's pass answers
    ("Starting the game...") and the game's modules come in one a pass after it, then the
    game and its frame. In the key's pass, they outlasted the pass's budget on the Pico."""
    game_modules = ("play", "card", "handover", "gamelog", "labels")
    b, r, d, app = rig(store=Store(FakeFs(), "/saves"))
    new_game(d, app, 1)
    score_one(d, app)
    d.press(K.B_MENU)
    assert d.pick(menus.Menu.LABELS.index("Quit to title")) and app.screen.NAME == "title"
    kept = app.turn.game
    assert d.select(menus.T_DEMO)  # a solo game waits aside: the demo's three seats count
    _, came = _key_starts_in_passes(b, r, app, K.B_OK, "handover")
    assert app.turn.demo and "picoyacht.handover" in came, came
    d.press(K.B_MENU)
    assert d.pick(menus.Menu.LABELS.index("Stop demo")) and app.screen.NAME == "title"
    assert d.select(menus.T_RESUME)
    _key_starts_in_passes(b, r, app, K.B_OK, "play")
    assert app.turn.game is kept and gc.threshold() == -1  # a game: the loop's sweeps collect

    finish(app)
    assert app.screen.NAME == "over", app.screen.NAME
    d.press(K.B_MENU)
    assert d.select(menus.Menu.LABELS.index("Play again"))
    _, came = _key_starts_in_passes(b, r, app, K.B_OK, "play")
    assert app.turn.game is not kept and "picoyacht.handover" not in came, came  # one seat

    fs = FakeFs()
    b, r, d, app = rig(store=Store(fs, "/saves"))
    new_game(d, app, 2)
    score_one(d, app)
    for m in game_modules:  # a new boot's heap
        heap.forget(m)
    b, r, d, app = rig(store=Store(fs.reboot(), "/saves"))
    assert app.screen.NAME == "message", app.screen.NAME
    passes, came = _key_starts_in_passes(b, r, app, K.B_OK, "handover")
    assert "picoyacht.play" in came, came
    print("PASS other_starts_in_passes passes=%d" % passes)


def check_setup_looks_for_tables():
    """Setup looks for Expert's table (an import on the .mpy layout, a 36 ms press) when it
    opens and when the rule set, joker rule or Sharp Dice change; not on the other presses."""
    from picoyacht import newgame

    b, r, d, app = rig()
    while app.screen.items[app.screen.sel] != menus.T_NEW:
        d.press(K.B_DOWN)
    d.press(K.B_OK)
    assert app.screen.NAME == "setup"
    looks = []
    look = newgame.table_available

    def counting(s):
        looks.append(s.rid)
        return look(s)

    newgame.table_available = counting
    try:
        s = app.settings
        while s.kinds[0] != newgame.CPU_EXPERT:
            d.pick(newgame.R_KIND)
        assert len(looks) == 1, looks  # the first Expert seat
        d.pick(newgame.R_PLAYERS)
        d.pick(newgame.R_COACH)
        d.pick(newgame.R_KIND + 1)
        assert len(looks) == 1, looks
        d.pick(newgame.R_RULES)
        assert looks[1:] == [s.rid], looks
    finally:
        newgame.table_available = look
    print("PASS setup_looks_for_tables")


def main(argv):
    name = argv[0]
    if name == "mash":
        check_mash(int(argv[1]))
    else:
        globals()["check_" + name]()


if __name__ == "__main__":
    main(sys.argv[1:])

