"""Words a player understands, through the real App on the headless board: setup's player
types in their order, Casino credits as a wallet, the standings page, the roll-off shown."""

import pytest
from board_sim import FOUR, FULL
from test_ux import Rig, finish, numbers, words

from picoyacht import buttons as K
from picoyacht import menus, newgame
from picoyacht.game import HUMAN
from picoyacht.rules import CASINO5, DELUXE, MAXI, YAHTZEE
from picoyacht.saves import Settings
from picoyacht.screens import KIND_NAMES, ROW_WALLET, row_sum
from picoyacht.wallets import WALLET_START


def test_setup_steps_player_types_in_order_from_human():
    """A fresh setup's seat meets Human, CPU Easy, CPU Normal, CPU Expert, then Human
    again. Breaks if a seat starts on another kind (the old CPU Normal default showed
    Normal, Expert, Human, Easy) or the step runs backwards."""
    r = Rig()
    assert list(Settings().kinds) == [HUMAN] * 6
    r.d.pick(menus.T_NEW)
    r.d.select(newgame.R_KIND + 1)
    seen = []
    for _ in range(5):
        kind = KIND_NAMES[r.app.settings.kinds[1]]
        shown = words(r.app)  # Expert without its table here says so
        assert kind in shown or (kind == "CPU Expert" and "Expert: estimate" in shown)
        seen.append(kind)
        r.d.pick(newgame.R_KIND + 1)
    assert seen == ["Human", "CPU Easy", "CPU Normal", "CPU Expert", "Human"]


def test_casino_credits_read_as_a_wallet_not_debts():
    """Every seat's wallet shows its credits, its stake already in the pot: on the
    standings, the grid and game over; the winner's ends with the pot, and the records
    keep what game over showed. Breaks with the old net credits (-10 at the start), with
    this game's winnings alone (from 0), or if the wallet shown is not the one kept."""
    r = Rig()
    g = r.new_game((HUMAN, HUMAN), CASINO5, begin=False)
    bet = g.options.bet
    assert g.credits == [-bet, -bet]  # the game's own count is unchanged: net
    r.app.go("scores")
    assert "wallet" in words(r.app)
    on_wallet_column = [n for n, xr, y in numbers(r.app, "rnum") if xr == 94 and y >= 16]
    assert on_wallet_column == [WALLET_START - bet] * 2
    seen = []
    for _ in range(r.app.screen.pages()):
        seen += words(r.app)
        r.d.press(K.B_DOWN)
    assert "Wallet" in seen and "Cr" not in seen
    r.d.press(K.B_MENU)
    finish(r.app)
    assert r.app.screen.NAME == "over"
    w = words(r.app)
    assert "wallet" in w and "cred" not in w
    shown = {n for n, xr, y in numbers(r.app, "rnum") if xr == 94 and y >= 16}
    assert all(n >= 0 for n in shown)
    assert max(shown) >= WALLET_START + bet  # the pot went to the winner's wallet
    rec = r.app.records
    assert [row_sum(g, s, ROW_WALLET, rec.opening(s)) for s in range(2)] == [
        WALLET_START + c for c in g.credits]
    kept = {r.app.records.wallet(i)[0] for i in range(2)}
    assert kept == shown


def _key_letters(app):
    """The letters the diagnostics screen draws on its Keys row."""
    got = []
    cv = app.cv
    glyph = cv.glyph

    def spy(code, x, y, c=1):
        if y == 8:
            got.append(chr(code))
        return glyph(code, x, y, c)

    cv.glyph = spy
    try:
        words(app)
    finally:
        del cv.glyph
    return "".join(got)


@pytest.mark.parametrize("present,hint,letters,legend", [
    (FULL, "hold Menu", "123456RUDOM", "1-5: hold  OK: pick"),
    (FOUR, "hold B", "UDAB", "Up/Dn: move  A: pick"),
])
def test_prompts_name_the_builds_own_buttons(present, hint, letters, legend):
    """The full build's diagnostics say "hold Menu" and letter its OK and Menu buttons O
    and M; the 4-button build's say "hold B" and A, B. The play legend names the keys of
    each. Breaks with the old "hold B" and "A B" on both, or "1-6 hold  Roll  OK"."""
    r = Rig(present)
    r.app.show("diag")
    r.d.run_ms(50)  # the loop feeds the screen its facts
    assert hint in words(r.app)
    assert "".join(ch for ch in _key_letters(r.app) if ch.isalnum()) == letters
    r2 = Rig(present)
    r2.new_game()
    assert r2.app.screen.NAME == "play" and legend in words(r2.app)


def test_the_hold_legend_names_the_games_own_dice():
    """A 5-dice game's legend holds with 1-5, a 6-dice game's with 1-6. Breaks with one
    "1-6: hold" for every game."""
    for rid, legend in ((YAHTZEE, "1-5: hold"), (MAXI, "1-6: hold")):
        r = Rig(FULL)
        r.new_game((HUMAN,), rid)
        assert r.app.screen.NAME == "play" and legend + "  OK: pick" in words(r.app), rid


def test_deluxe_shows_its_roll_off_then_the_first_turn():
    """Before the first turn, every throw of the roll-off (each a total of six dice) with
    its thrower, the winner marked; a key then opens the hand-over. Breaks if the game
    goes straight to the hand-over, as it did, or a throw is left out."""
    r = Rig()
    r.app.settings.names[:3] = ["Ann", "Bob", "Cleo"]
    g = r.new_game((HUMAN, HUMAN, 2), DELUXE, begin=False)
    assert g.rolloff and r.app.screen.NAME == "rolloff"
    w = words(r.app)
    shown = [n for n, xr, y in numbers(r.app, "rnum") if y >= 16]
    throws = [t for rnd in g.rolloff for t in rnd]
    assert shown == [total for _, total in throws]
    assert all(g.names[seat] in w for seat, _ in throws)
    assert all(6 <= total <= 36 for _, total in throws)
    first = g.rolloff[-1]
    assert g.current == max(first, key=lambda t: t[1])[0]
    r.d.press(K.B_OK)
    assert r.app.screen.NAME == "handover" and "won the roll-off" in words(r.app)


def test_a_roll_off_with_a_tie_says_they_throw_again():
    """A tie's second round is shown after a line that says so. Breaks if only the last
    round is drawn."""
    r = Rig()
    g = r.new_game((HUMAN, HUMAN), DELUXE, begin=False)
    g.rolloff[:] = [[(0, 20), (1, 20)], [(0, 25), (1, 19)]]  # as a tie would leave it
    w = words(r.app)
    assert "Tie: they throw again" in w
    assert [n for n, xr, y in numbers(r.app, "rnum") if y >= 16] == [20, 20, 25, 19]


SIX = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Finn"]


def six_seats_with_a_tie():
    """A 6-player game whose Chance boxes tie Bob and Dan at the top."""
    r = Rig()
    r.app.settings.names[:6] = SIX
    g = r.new_game((HUMAN,) * 6)
    for s, pts in enumerate((10, 30, 20, 30, 0, 5)):
        g.scores[s * g.rs.nboxes + 12] = pts  # Chance
        g.filled[s] |= 1 << 12
    return r, g


def test_standings_page_ranks_all_six_seats_first():
    """With 6 players, the scores' first page has every seat's rank, name and total, best
    first (a tie shares its rank); before, totals were on pages 4 and 8 only."""
    r, g = six_seats_with_a_tie()
    r.app.go("scores")
    assert r.app.screen.page == 0
    w = words(r.app)
    order = [w.index(n) for n in SIX]
    ranked = sorted(range(6), key=lambda s: (-g.total(s), s))
    assert sorted(range(6), key=lambda s: order[s]) == ranked
    nums = numbers(r.app, "rnum")
    totals = [n for n, xr, y in nums if xr == 128 and y >= 16]
    ranks = [n for n, xr, y in nums if xr == 12 and y >= 16]
    assert totals == [30, 30, 20, 10, 5, 0]
    assert ranks == [1, 1, 3, 4, 5, 6]


def test_standings_sum_each_card_once():
    """Opening the scores sums each seat's card once, and the standings page draws from
    those totals: ranking by summing every card for every rank took 6 players' standings
    far over a pass's 20 ms on the emulated Pico. Breaks if the ranking goes back to
    Game.total per comparison. The totals stay right while it shows (no move is made)."""
    r = Rig()
    g = r.new_game((HUMAN,) * 6)
    for s, pts in enumerate((10, 30, 20, 30, 0, 5)):
        g.scores[s * g.rs.nboxes + 12] = pts  # Chance
        g.filled[s] |= 1 << 12
    total = g.total
    calls = []
    g.total = lambda seat: calls.append(seat) or total(seat)
    r.app.go("scores")
    nums = numbers(r.app, "rnum")  # (draws the page)
    assert sorted(calls) == list(range(6))
    assert [n for n, xr, y in nums if xr == 128 and y >= 16] == [30, 30, 20, 10, 5, 0]


def test_game_over_ranks_as_the_standings_do():
    """Game over lists the seats best first, a tie in seat order, as the standings page
    does (both scan with screens.next_ranked). Breaks if Over ranks its own way, e.g. a
    tie taken last seat first."""
    r, g = six_seats_with_a_tie()
    r.app.go("over")
    w = words(r.app)
    assert sorted(SIX, key=w.index) == ["Bob", "Dan", "Cleo", "Ann", "Finn", "Eve"]
    totals = [n for n, xr, y in numbers(r.app, "rnum") if xr == 128 and y >= 16]
    assert totals == [30, 30, 20, 10, 5, 0]
