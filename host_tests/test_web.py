"""The browser board (tools/web): the unchanged firmware on MicroPython's pinned WebAssembly
port, first in Node (no browser: the golden frames, a game with a CPU seat to its end,
saves across a reload and their faults), then in headless Chromium on the built site
served on 127.0.0.1 (games by keys and by clicks, the canvas against the golden frames,
the resume screen after a reload, Expert's table fetched, each fault said on the page).

The site is built once, in pytest's temporary directory, without Expert's real tables: a
stand-in file takes their place, so the fetch and its progress run without `make tables`.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "tools" / "web"
DRIVERS = ROOT / "tools" / "rigs"  # node_run.mjs: the port in Node; browser_check.mjs
GOLDEN = ROOT / "host_tests" / "golden"
CHROMIUM = Path("/usr/bin/chromium")
STAND_IN_TABLE = "yahtzee.bin"  # the shared Yahtzee table's name: serves every joker rule

pytestmark = pytest.mark.skipif(shutil.which("node") is None,
                                reason="node is needed for the web tests (apt-get install nodejs)")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site `make web` builds, in a directory of its own, with a stand-in for Expert's
    table."""
    out = tmp_path_factory.mktemp("web") / "site"
    subprocess.run([sys.executable, str(WEB / "build_site.py"), "--out", str(out),
                    "--no-tables"], check=True, capture_output=True)
    (out / "tables").mkdir(exist_ok=True)
    data = bytes((i * 7) & 0xFF for i in range(200_000))  # not a table: Expert plays Normal
    (out / "tables" / STAND_IN_TABLE).write_bytes(data)
    (out / "tables.json").write_text(json.dumps({STAND_IN_TABLE: len(data)}))
    return out


def on_port(site, *scripts, files=()):
    """Run Python scripts one after another on the port in Node, sharing the page-storage
    stand-in (each is a fresh interpreter: a reload). Returns stdout."""
    paths = []
    tmp = Path(tempfile.mkdtemp(dir=site.parent))
    for i, src in enumerate(scripts):
        p = tmp / ("script_%d.py" % i)
        p.write_text(src)
        paths.append(str(p))
    cmd = ["node", str(DRIVERS / "node_run.mjs"), str(site)]
    for f in files:
        cmd += ["--file", str(f)]
    r = subprocess.run(cmd + ["--", *paths], capture_output=True, text=True, timeout=300,
                       cwd=ROOT)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return r.stdout


def golden(name):
    return (GOLDEN / (name + ".hex")).read_text().strip()


# ---------------------------------------------------------------- in Node, no browser
def test_every_golden_frame_on_the_webassembly_port(site):
    """tools/rigs/shots_mp.py's 30 screens, drawn by the Python loops (the port has no viper),
    byte for byte the frames the unix port's viper loops made."""
    out = on_port(site, "import shots_mp\nshots_mp.main()\n",
                  files=[DRIVERS / "shots_mp.py"])
    frames = dict(line.split()[1:] for line in out.splitlines() if line.startswith("FRAME "))
    assert len(frames) == len(list(GOLDEN.glob("*.hex")))
    for name, hexed in frames.items():
        assert hexed == golden(name), name


def test_a_game_with_a_cpu_seat_plays_to_its_end_on_the_port(site):
    """tools/rigs/ui_play.py: every press through the real loop, a Normal CPU seat
    thinking with the engine, the scorecards full, no fault."""
    out = on_port(site, "import ui_play\nui_play.main(['players=2', 'cpus=1'])\n",
                  files=[DRIVERS / "ui_play.py", DRIVERS / "scripted.py"])
    assert "OK presses=" in out


PLAY = """
import host
import board_web
from board_sim import Driver
from picoyacht import buttons as K, menus, newgame

board = board_web.start(host, 11, 0)
d = Driver(board, board.runner)
app = board.app
d.run_ms(50)

def score_boxes(n):
    for _ in range(n):
        while app.screen.NAME != "play":
            d.press(K.B_OK)
        d.press(K.B_ROLL)
        d.run_ms(400)
        while app.screen.cursor != len(app.turn.game.dice) + 1:
            d.press(K.B_DOWN)
        turn = app.turn.game.turn
        d.press(K.B_OK)
        d.press(K.B_OK)
        if app.screen.NAME == "card":
            d.press(K.B_OK)
        assert app.turn.game.turn == turn + 1
"""

NEW_GAME = PLAY + """
assert d.pick(menus.T_NEW)
while app.settings.nplayers != 1:
    assert d.pick(newgame.R_PLAYERS)
assert d.pick(newgame.R_START)
"""

BOOT = PLAY + """
g = app.turn.game
print("BOOT", app.screen.NAME, g.turn if g else -1, g.total(0) if g else -1,
      app.settings.nplayers, host.messages.join(" | "))
"""


def boot_line(out):
    line = [x for x in out.splitlines() if x.startswith("BOOT ")][-1].split(" ", 5)
    return line[1], int(line[2]), int(line[3]), int(line[4]), line[5]


def test_saves_settings_and_records_survive_a_reload(site):
    """A game scored through the buttons, then a fresh interpreter on the same storage:
    the resume offer, the same turn and total, the settings kept, nothing reported."""
    out = on_port(site, NEW_GAME + """
score_boxes(3)
print("SAVED", app.turn.game.turn, app.turn.game.total(0), host.storage_names().replace("\\n", ","))
""", BOOT)
    saved = [x for x in out.splitlines() if x.startswith("SAVED ")][0].split()
    names = saved[3].split(",")
    for kind in ("settings", "game"):
        assert "/saves/%s.dat" % kind in names
    assert "/saves/game.bak" in names
    screen, turn, total, players, messages = boot_line(out)
    assert (screen, turn, total, players) == ("message", int(saved[1]), int(saved[2]), 1)
    assert "load" not in messages and "not saved" not in messages  # only the all-clears


def test_a_damaged_save_falls_back_to_its_backup_and_says_so(site):
    out = on_port(site, NEW_GAME + """
score_boxes(3)
print("TURN", app.turn.game.turn)
key = "/saves/game.dat"
text = host.storage_get(key)
host.storage_set_raw(key, text[:40] + ("1" if text[40] == "0" else "0") + text[41:])
""", BOOT)
    turn = int([x for x in out.splitlines() if x.startswith("TURN ")][0].split()[1])
    screen, after, _, _, messages = boot_line(out)
    assert after == turn - 1  # the backup: one box older
    assert "game: save corrupt: using backup" in messages


def test_values_too_long_to_be_a_save_are_not_read_and_the_backup_wins(site):
    """600 K characters under game.dat and game.tmp, and under a key no store writes: the
    port's 512 KB heap would take none of them. The board reads only the store's files, up to
    the longest valid copy: the too-long ones count as corrupt, the backup is offered, and
    the page is told which value it refused."""
    out = on_port(site, NEW_GAME + """
score_boxes(3)
print("TURN", app.turn.game.turn)
for key in ("/saves/game.dat", "/saves/game.tmp", "/saves/unknown.dat", "/other"):
    host.storage_set_repeat(key, "0", 600000)
""", BOOT)
    turn = int([x for x in out.splitlines() if x.startswith("TURN ")][0].split()[1])
    screen, after, _, _, messages = boot_line(out)
    assert (screen, after) == ("message", turn - 1)  # the resume offer, from game.bak
    assert "refused game.dat 600000" in messages and "refused game.tmp 600000" in messages
    assert "unknown" not in messages and "other" not in messages  # never read, never said
    assert "game: save corrupt: using backup" in messages


def test_a_value_one_character_over_the_limit_is_refused_and_one_under_is_read(site):
    """The limit is the longest file the store can read as valid, in hex: at it the value
    is read (and found corrupt, being zeros); one character more and it is not read."""
    out = on_port(site, """
import host
import board_web
limit = board_web.MAX_STORED
host.storage_set_repeat("/saves/records.dat", "0", limit)
host.storage_set_repeat("/saves/records.bak", "0", limit + 1)
fs = board_web.PageFs(host)
print("LIMIT", limit, len(fs.files["/saves/records.dat"]), fs.refused)
""")
    line = [x for x in out.splitlines() if x.startswith("LIMIT ")][0]
    limit = int(line.split()[1])
    assert limit == 2 * (16 + 4096)  # store.py: a 16-byte header and at most 4096 bytes
    assert line == "LIMIT %d %d [('/saves/records.bak', %d)]" % (limit, limit // 2, limit + 1)


def test_a_full_storage_is_reported_and_the_game_goes_on(site):
    out = on_port(site, NEW_GAME + """
host.full = True
score_boxes(2)
print("FULL", app.turn.game.turn, host.messages.join(" | "))
""")
    line = [x for x in out.splitlines() if x.startswith("FULL ")][0]
    assert line.startswith("FULL 2 ")
    assert "game: not saved: flash full" in line


def test_the_firmwares_cues_reach_the_page_as_tones(site):
    """The Player's own tone(freq, duty) calls from its cue tables: what WebAudio plays."""
    out = on_port(site, NEW_GAME + """
score_boxes(1)
tones = [host.tones[i] for i in range(host.tones.length)]
print("TONES", len(tones), len([t for t in tones if t[0] > 0 and t[1] > 0]))
""")
    n, sounding = map(int, [x for x in out.splitlines() if x.startswith("TONES ")][0].split()[1:])
    assert sounding > 0 and n > sounding  # notes, and the silences between them


# ---------------------------------------------------------------- in headless Chromium
@pytest.fixture(scope="module")
def browser(site):
    """browser_check.mjs's scenarios on the site, served on a free port of 127.0.0.1:
    {scenario: its report}."""
    if not CHROMIUM.exists():
        pytest.skip("chromium is not installed (%s; Debian: apt-get install chromium), so "
                    "the page was not played in a browser" % CHROMIUM)
    sys.path.insert(0, str(WEB))
    import npm
    import serve

    server, url = serve.start(site)
    try:
        r = subprocess.run(["node", str(DRIVERS / "browser_check.mjs"), str(npm.modules()), url,
                            "frames", "keyboard", "table", "clicks", "faults", "storage",
                            "viewports", "offline"],
                           capture_output=True, text=True, timeout=600, cwd=ROOT)
    finally:
        server.shutdown()
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return {d["check"]: d for d in map(json.loads, r.stdout.splitlines())}


def test_the_canvas_shows_the_golden_frames(browser):
    """Title, setup, name, the start item, hand-over and the play screen, read back from
    the canvas's pixels after the same presses as tools/rigs/shots_mp.py, by keyboard."""
    shots = browser["frames"]["shots"]
    assert set(shots) == {"title", "setup", "name", "setup_start", "handover", "play_ready"}
    for name, hexed in shots.items():
        assert hexed == golden(name), name
    assert browser["frames"]["errors"] == []


def test_a_whole_game_by_keyboard_on_a_phone_sized_page(browser):
    kb = browser["keyboard"]
    assert (kb["scored"], kb["over"], kb["errors"]) == (13, True, [])
    sizes = kb["sizes"]
    assert sizes["page"] == 390 and sizes["panelWidth"] >= 2 * 128
    assert len(sizes["buttons"]) == 11 and min(sizes["buttons"]) >= 44
    assert kb["holdsShown"] == 5  # a Yahtzee game: no sixth hold button


def test_a_held_key_repeats_through_the_firmwares_debouncer(browser):
    """Down held for 1.5 s on the title list: one press and then its repeats."""
    assert browser["keyboard"]["moves"] >= 4


def test_a_whole_game_by_clicking_the_buttons_of_the_4_button_build_on_a_phone(browser):
    c = browser["clicks"]
    assert c["four"] and c["errors"] == []
    assert c["first"]["scored"] == 2
    assert c["rest"] == {"scored": 11, "over": True}
    sizes = c["sizes"]
    assert sizes["page"] == 390 and sizes["panelWidth"] >= 2 * 128
    assert len(sizes["buttons"]) == 4 and min(sizes["buttons"]) >= 44


def test_a_reload_offers_to_resume(browser):
    r = browser["clicks"]["resumed"]
    assert r["screen"] == "message" and r["game"]["turn"] == 2 and not r["game"]["over"]
    assert browser["clicks"]["resumeShot"] != golden("title")


def test_a_game_that_needs_expert_fetches_the_table_with_progress(browser):
    t = browser["table"]
    assert t["tableFiles"] == [STAND_IN_TABLE]
    assert t["progress"] > 0
    assert t["messages"] == [] and t["errors"] == []


def test_each_fault_is_said_on_the_page_and_play_goes_on(browser):
    f = browser["faults"]
    assert "cannot run WebAssembly" in f["noWasm"][0]
    assert "does not let the page keep data" in f["storageOff"]["messages"][0]
    assert f["storageOff"]["screen"] in ("play", "handover")
    assert "storage is full" in f["storageFull"]["messages"][0]
    assert f["storageFull"]["scored"] == 1 and f["storageFull"]["screen"] == "play"
    d = f["damaged"]
    assert "The backup copy was used" in d["messages"][0]
    assert (d["screen"], d["turnAfter"]) == ("message", d["turnBefore"] - 1)
    for case in ("storageOff", "storageFull", "damaged"):
        assert f[case]["errors"] == [], case


def test_wiping_leaves_no_save_and_no_game(browser):
    w = browser["faults"]["wiped"]
    assert w["stored"] == [] and w["game"] is None and w["screen"] == "title"


def test_values_too_long_to_be_a_save_are_said_on_the_page_and_wiped(browser):
    """600 K characters under game.dat, game.tmp and an unknown key: the page starts, offers
    the backup's game (one box older), says which values it refused; Wipe clears them all."""
    o = browser["storage"]["oversized"]
    assert o["booted"] and o["errors"] == []
    assert (o["screen"], o["turnAfter"]) == ("message", o["turnBefore"] - 1)
    said = " ".join(o["messages"])
    assert "game.dat was too long to be a save" in said
    assert "game.tmp was too long to be a save" in said
    assert "The backup copy was used" in said and "unknown" not in said
    w = browser["storage"]["oversizedWiped"]
    assert w["stored"] == [] and w["game"] is None and w["screen"] == "title"


def test_a_start_that_fails_is_said_on_the_page_and_wipe_still_works(browser):
    """Storage that throws while the board reads it: the page says the start failed and how
    to recover, leaves the loading screen, and Wipe (wired before the start) clears it."""
    f = browser["storage"]["failedStart"]
    assert any("could not start" in m and "Wipe" in m for m in f["messages"])
    assert not f["loading"]
    w = browser["storage"]["failedWiped"]
    assert w["stored"] == [] and w["game"] is None and w["screen"] == "title"
    assert w["errors"] == []
def test_every_phone_size_shows_the_panel_and_every_button_without_scrolling(browser):
    """Upright and on its side from 320x568 to 932x430, and a desktop, for both builds:
    the panel inside its frame, every on-screen button inside the viewport and at least
    44 px each way, nothing scrolled."""
    seen = browser["viewports"]["seen"]
    assert len(seen) == 26
    for v in seen:
        where = "%dx%d%s" % (v["width"], v["height"], " (4 buttons)" if v["four"] else "")
        panel, inside = v["panel"], v["inside"]
        assert panel["right"] - panel["left"] >= 2 * 128, where
        assert panel["left"] >= inside["left"] and panel["right"] <= inside["right"], where
        assert panel["top"] >= inside["top"] and panel["bottom"] <= inside["bottom"], where
        assert len(v["buttons"]) == (4 if v["four"] else 10 if v["five"] else 11), where
        for b in v["buttons"]:
            assert b["left"] >= 0 and b["top"] >= 0, where
            assert b["right"] <= v["width"] and b["bottom"] <= v["height"], where
            assert min(b["right"] - b["left"], b["bottom"] - b["top"]) >= 44, where
        assert (v["scrollX"], v["scrollY"]) == (0, 0), where


def test_a_second_visit_plays_a_game_with_an_expert_seat_with_the_network_off(browser):
    """The service worker kept the site and the table the Expert seat fetched: offline, the
    reload offers the game, which plays to its end with no message and no error."""
    o = browser["offline"]
    assert o["controlled"] and o["online"] is False
    assert o["first"]["scored"] == 1 and o["resumed"] == "message"
    assert o["rest"] == {"scored": 12, "over": True}
    assert o["expert"] == 3 and o["messages"] == [] and o["errors"] == []


def test_the_page_is_installable_and_says_its_version_and_rules(browser):
    """A manifest with the two icons (PNGs drawn from the firmware's die), the version, a
    link to the rules and to the project, and a rules panel per game with every box, the
    game being played open."""
    o = browser["offline"]
    assert o["manifest"] == {"name": "PicoYacht", "display": "standalone",
                             "icons": ["192x192", "512x512"]}
    assert o["iconType"] == "image/png" and o["iconBytes"] > 100
    assert o["version"].startswith(json.loads((ROOT / "package.json").read_text())["version"])
    assert o["links"] == ["rules.txt", "readme.txt"]
    rules = {r["name"]: r for r in o["rules"]}
    assert len(rules) == 6
    assert rules["Maxi Yatzy: 6 dice, 20 boxes"]["rows"] == 20
    assert [r["name"] for r in o["rules"] if r["open"]] == ["Yahtzee: 5 dice, 13 boxes"]
