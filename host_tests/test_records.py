"""Records with the average and a top five per rule set (Casino: credits won), in format 4
(with Casino's wallets: test_wallets), with the old formats still loading and crafted or
damaged files refused."""

import pytest
from board_sim import FOUR, FULL
from hypothesis import given, settings
from hypothesis import strategies as st
from records_files import records_v2, records_v3, records_v4
from test_ux import Rig, finish, numbers, words

from picoyacht import buttons as K
from picoyacht import record_check, records, rules, saves
from picoyacht.game import HUMAN
from picoyacht.rules import CASINO5, CASINO6, MAXI, YAHTZEE, YATZY


class Counted:
    """A finished game as Records.add reads it: totals (or Casino credits) per seat."""

    def __init__(self, rid, totals, names=None, seed=1, credits=None, bet=10):
        self.rs = rules.RULESETS[rid]
        self.nseats = len(totals)
        self.names = names or ["P%d" % s for s in range(len(totals))]
        self.seed = seed
        self.credits = credits or [0] * len(totals)
        self.options = rules.Options(bet=bet)
        self._totals = totals

    def total(self, seat):
        return self._totals[seat]


def name(rec, r, i):
    pos, n = rec.name_at(r, i)
    return str(bytes(rec.data[pos:pos + n]), "utf-8")


def top(rec, r):
    return [(rec.score(r, i), name(rec, r, i)) for i in range(saves.TOP) if rec.score(r, i) >= 0]


def test_average_and_top_five_over_games():
    """Every seat's total counts: 7 totals over 3 games, the average to a tenth, the five
    best in order, a tie after the score it equals, the sixth best dropped. Breaks if only
    the best is kept or the average counts games instead of totals."""
    rec = saves.Records()
    assert rec.add(Counted(YAHTZEE, [200, 150], ["Ann", "Bob"], 1))
    assert not rec.add(Counted(YAHTZEE, [180, 150, 90], ["Cy", "Dee", "Evangela"], 2))
    assert rec.add(Counted(YAHTZEE, [230, 120], ["Bob", "Ann"], 3))
    assert rec.games(YAHTZEE) == 3 and rec.totals(YAHTZEE) == 7
    total = 200 + 150 + 180 + 150 + 90 + 230 + 120
    assert rec.average_tenths(YAHTZEE) == total * 10 // 7
    assert top(rec, YAHTZEE) == [(230, "Bob"), (200, "Ann"), (180, "Cy"), (150, "Bob"),
                                 (150, "Dee")]
    assert rec.best(YAHTZEE) == 230
    assert rec.games(YATZY) == 0 and rec.best(YATZY) == 0
    assert rec.average_tenths(YATZY) == -1
    back = saves.Records.unpack(rec.pack())
    assert back.pack() == rec.pack() and top(back, YAHTZEE) == top(rec, YAHTZEE)
    rec.add(Counted(YATZY, [99], ["Annabell"], 4))  # a name of MAX_NAME bytes fills its field
    assert name(saves.Records.unpack(rec.pack()), YATZY, 0) == "Annabell"


def test_casino_counts_credits_won_not_points():
    """Casino's records take what each seat won (credits + bet), never the card's points.
    Breaks with the old best, which counted the total."""
    rec = saves.Records()
    game = Counted(CASINO5, [250, 190], ["Ann", "Bob"], credits=[25, -10], bet=10)
    rec.add(game)
    assert top(rec, CASINO5) == [(35, "Ann"), (0, "Bob")]
    assert rec.average_tenths(CASINO5) == 175
    saves.Records.unpack(rec.pack())  # a 0 won is a real score: it loads


def test_format_2_and_1_files_still_load():
    """An old file's best becomes the top score, with no average yet; its Casino best
    counted points, so it is dropped (the games stay). Breaks if old files are refused."""
    old = records_v2({YAHTZEE: (4, 260, "Ann"), CASINO6: (2, 400, "Bob")}, b"\x00\x01\x02\x03\x04")
    rec = saves.Records.unpack(old)
    assert top(rec, YAHTZEE) == [(260, "Ann")] and rec.games(YAHTZEE) == 4
    assert rec.average_tenths(YAHTZEE) == -1
    assert rec.games(CASINO6) == 2 and top(rec, CASINO6) == []
    assert rec.last == b"\x00\x01\x02\x03\x04"
    v1 = b"R\x01" + old[2:-6]  # format 1: the same without the last game
    assert top(saves.Records.unpack(v1), YAHTZEE) == [(260, "Ann")]
    again = saves.Records.unpack(rec.pack())
    assert again.pack() == rec.pack()


GOOD = {YAHTZEE: (3, 7, 1190, [(230, "Bob"), (200, "Ann"), (180, "Cy")])}
WITH_WALLETS = {**GOOD, CASINO5: (2, 4, 60, [(40, "Ann"), (10, "Bob")])}
WALLETS = [(130, "Ann"), (85, "Bob"), (100, "Ève")]


@pytest.mark.parametrize("blocks", [
    {YAHTZEE: (3, 7, 1190, [(200, "Ann"), (230, "Bob")])},  # out of order
    {YAHTZEE: (3, 7, 1190, [(230, "Bob"), (0, ""), (180, "Cy")])},  # an empty name
    {YAHTZEE: (3, 7, 1190, [(230, "Bob")] * 6)},  # six top scores
    {YAHTZEE: (3, 7, 1190, [(230, b"Bob\x00x")])},  # a control byte in the name
    {YAHTZEE: (3, 7, 1190, [(230, b"Bob\x7f")])},  # DEL in the name
    {YAHTZEE: (3, 7, 1190, [(230, "Bob\x9f".encode())])},  # a C1 control in the name
    {YAHTZEE: (3, 7, 1190, [(230, b"\xff\xfe")])},  # a name that does not decode
    {YAHTZEE: (3, 7, 1190, [(230, "")])},  # a score with no name
    {YAHTZEE: (1, 7, 1190, [(230, "Bob")])},  # 7 totals from one game
    {YAHTZEE: (0, 0, 0, [(230, "Bob")])},  # a score with no game
    {YAHTZEE: (3, 0, 1190, [(230, "Bob")])},  # a sum of no totals
    {YAHTZEE: (3, 2, 5000, [(230, "Bob")])},  # a sum two cards cannot make
    {MAXI: (1, 1, 400, [(record_check.max_total(rules.RULESETS[MAXI]) + 1, "Bob")])},
    {CASINO5: (1, 2, 10, [(record_check.score_cap(rules.RULESETS[CASINO5]) + 1, "Bob")])},
])
def test_crafted_records_are_refused(blocks):
    """Each file breaks one rule real games keep; the good one loads. Breaks if a check
    in saves._check goes."""
    saves.Records.unpack(records_v3(GOOD))
    with pytest.raises(ValueError):
        saves.Records.unpack(records_v3(blocks))


def test_damaged_records_are_refused():
    """Cut short, grown, an unknown format, a wrong rule-set count, a name too long: each
    is a ValueError. Breaks if unpack reads past the data or ignores what is left."""
    good = records_v3(GOOD)
    long_name = bytearray(good)
    long_name[3 + 9 + 2] = 9  # the first name's length: more than a name has
    assert long_name[3 + 9 + 3:3 + 9 + 6] == b"Bob"
    for bad in (good[:-1], good[:50], good + b"\x00", b"R\x05" + good[2:], b"R", b"",
                good[:2] + b"\x05" + good[3:], bytes(long_name)):
        with pytest.raises(ValueError):
            saves.Records.unpack(bad)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=0, max_size=400), st.integers(0, 390))
def test_any_bytes_either_load_consistently_or_are_refused(noise, at):
    """Random damage to a good file (format 3, or 4 with wallets): unpack refuses it with
    ValueError or gives records that pack back to the same bytes. Breaks if a check raises
    anything else."""
    _any_bytes(records_v3(GOOD), noise, at)


@settings(max_examples=300, deadline=None)
@given(st.binary(min_size=0, max_size=400), st.integers(0, 420))
def test_any_damage_to_wallets_loads_consistently_or_is_refused(noise, at):
    """As above, on a format 4 file whose wallets are the last 40-odd bytes: damage there
    (a credit over the most, a name twice, a name's bytes) is refused or packs back the
    same. Breaks if the wallets' check raises anything but ValueError."""
    _any_bytes(records_v4(WITH_WALLETS, wallets=WALLETS), noise, at)


def _any_bytes(file, noise, at):
    good = bytearray(file)
    for i, b in enumerate(noise[:8]):
        if at + i < len(good):
            good[at + i] = b
    for data in (bytes(good), noise):
        try:
            rec = saves.Records.unpack(data)
        except ValueError:
            continue
        assert saves.Records.unpack(rec.pack()).pack() == rec.pack()


def test_records_screen_shows_average_and_top_five():
    """Through the App: two solo games, then Records: the Yahtzee page has the plays, the
    average and both totals in order. Breaks with the old two-page screen."""
    r = Rig()
    totals = []
    for _ in range(2):
        g = r.new_game()
        finish(r.app)
        totals.append(g.total(0))
        r.d.press(K.B_MENU)
        r.app.home()
    rec = r.app.records
    assert rec.games(YAHTZEE) == 2 and rec.totals(YAHTZEE) == 2
    r.app.show("records")
    r.d.press(K.B_DOWN)  # Yahtzee's page
    w = words(r.app)
    assert "Yahtzee" in w and "plays " in w and "avg " in w and "total" in w
    nums = numbers(r.app, "rnum")
    assert [n for n, xr, y in nums if xr == 128 and y >= 24] == sorted(totals, reverse=True)
    rows = [(n, y) for n, x, y in numbers(r.app, "num") if x == 0]
    assert rows == [(1, 24), (2, 32), (3, 40), (4, 48), (5, 56)]  # all five on the panel
    avg = sum(totals) * 10 // 2
    shown = [n for n, x, y in numbers(r.app, "num") if y == 8]
    assert shown == [2, avg // 10, avg % 10]


def test_records_screen_casino_page_says_credits_won():
    """Breaks if the Casino page labels its scores "total" as the others do ("credits
    won" does not fit beside the clear hint: its scores are what the wallets page calls
    credits)."""
    r = Rig()
    r.new_game((HUMAN, HUMAN), CASINO5)
    finish(r.app)
    r.app.show("records")
    for _ in range(1 + CASINO5):
        r.d.press(K.B_DOWN)
    w = words(r.app)
    assert "won" in w and "total" not in w


@pytest.mark.parametrize("present", [FULL, FOUR])
def test_every_records_page_says_a_long_ok_clears_them(present):
    """A long OK clears the records from any page, so each page says so, in the build's
    key names, within the panel's 21 columns. Negative control: the hint drawn on the
    first page only (as it once was) fails every other page."""
    r = Rig(present)
    r.new_game((HUMAN, HUMAN), CASINO5)
    finish(r.app)
    r.app.show("records")
    scr = r.app.screen
    hint = r.app.keys(records.CLEAR)
    assert hint == ("Hold OK: clear" if present == FULL else "Hold A: clear")
    for page in range(scr.pages()):
        assert scr.page == page
        w = words(r.app)
        assert hint in w, page
        row = [s for s in w if s == hint]
        assert len(row) == 1 and len(hint) <= 21
        r.d.press(K.B_DOWN)
    assert scr.page == 0
    r.d.press(K.B_DOWN)
    r.d.press(K.B_OK, hold=1000)  # from a page past the first: it asks to clear
    assert "Clear records?" in words(r.app)


def test_the_records_layout_has_one_home():
    """saves holds the layout; Records carries it for record_check and wallets, which saves
    loads and which so cannot import it. Breaks if a figure is wrong, or if any other module
    of the package sets a name of the layout (a copy that could drift)."""
    from picoyacht.game import MAX_NAME

    from conftest import ROOT

    assert saves.Records.ENTRY == 3 + MAX_NAME
    assert saves.Records.BLOCK == 8 + saves.TOP * saves.Records.ENTRY
    assert saves.WALLET_AT == rules.COUNT * saves.Records.BLOCK
    assert saves.OPENING_AT - saves.WALLET_AT == saves.WALLETS * saves.Records.ENTRY
    assert saves.SIZE == saves.OPENING_AT + 2 * rules.MAX_SEATS
    for name in ("TOP", "WALLETS", "WALLET_MAX", "WALLET_AT", "SIZE"):
        assert getattr(saves.Records, name) == getattr(saves, name), name
    rec = saves.Records()
    rec.add(Counted(YAHTZEE, [100]))
    assert len(rec.last) == rec.GAME_ID
    # empty blocks, no last game, no wallets
    assert len(saves.Records().pack()) == 3 + rules.COUNT * 9 + 1 + 1
    assert record_check.score_cap(rules.RULESETS[CASINO5]) == rules.BETS[-1] * (
        rules.MAX_SEATS + 2 * rules.RULESETS[CASINO5].nboxes)
    assert not copies(ROOT / "firmware" / "picoyacht"), copies(ROOT / "firmware" / "picoyacht")
    bad = "from micropython import const\nWALLETS = const(6)\n"
    assert copies(ROOT / "firmware" / "picoyacht", {"wallets.py": bad}) == ["wallets.py: WALLETS"]


_LAYOUT = {"TOP", "ENTRY", "BLOCK", "WALLETS", "WALLET_MAX", "WALLET_AT", "OPENING_AT", "SIZE",
           "GAME_ID", "BETS", "BET_MAX"}


def copies(pkg, text=None):
    """Every module but saves (and rules, BETS' home) that sets a name of the records'
    layout: ["file: NAME"]. text: {file name: source} read instead of the file."""
    import ast

    found = []
    for path in sorted(pkg.glob("*.py")):
        if path.name in ("saves.py", "rules.py"):
            continue
        src = (text or {}).get(path.name) or path.read_text()
        for node in ast.walk(ast.parse(src)):
            targets = node.targets if isinstance(node, ast.Assign) else []
            for t in targets:
                for n in ast.walk(t):
                    if isinstance(n, ast.Name) and n.id.lstrip("_") in _LAYOUT:
                        found.append("%s: %s" % (path.name, n.id))
    return found


def test_the_check_module_is_dropped_after_a_read():
    """A boot reads the records once: the checks' code must not stay in the heap."""
    import sys

    saves.Records.unpack(records_v3(GOOD))
    assert "picoyacht.record_check" not in sys.modules


def test_a_name_may_hold_no_control_character_of_any_kind():
    """rules.name_ok over every code point up to U+02FF: C0 (below 32), DEL and C1 (U+0080
    to U+009F) are refused, everything else (U+00A0, accented letters) passes. The records,
    the settings and a saved game's names are all held to it."""
    for cp in range(0x300):
        b = ("A" + chr(cp) + "B").encode()
        assert rules.name_ok(b) == (cp >= 32 and not 127 <= cp < 160), hex(cp)


def test_old_format_records_with_a_control_character_in_a_name_are_refused():
    good = records_v2({YAHTZEE: (4, 260, "Ann")}, b"\x00\x01\x02\x03\x04")
    saves.Records.unpack(good)
    for name in ("An\x7f", "An\x85"):
        with pytest.raises(ValueError):
            saves.Records.unpack(records_v2({YAHTZEE: (4, 260, name)}, b"\x00\x01\x02\x03\x04"))


def test_settings_with_a_control_character_in_a_name_are_refused():
    s = saves.Settings()
    s.names[0] = "Zo\u00eb"  # an accented letter is not a control character
    assert saves.Settings.unpack(s.pack()).names[0] == "Zo\u00eb"
    for name in ("A\x7f", "A\x9b", "A\x01"):
        s.names[0] = name
        with pytest.raises(ValueError):
            saves.Settings.unpack(s.pack())
