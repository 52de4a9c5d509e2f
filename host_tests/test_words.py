"""Words a player understands, through the real App on the headless board: setup's player
types in their order, credits as winnings, the standings page, the roll-off shown."""

import pytest
from board_sim import FOUR, FULL
from test_ux import Rig, finish, numbers, words

from picoyacht import buttons as K
from picoyacht import menus, newgame
from picoyacht.game import HUMAN
from picoyacht.rules import CASINO5
from picoyacht.saves import Settings
from picoyacht.screens import KIND_NAMES, ROW_CREDITS, row_sum


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
        assert kind in words(r.app)
        seen.append(kind)
        r.d.pick(newgame.R_KIND + 1)
    assert seen == ["Human", "CPU Easy", "CPU Normal", "CPU Expert", "Human"]


def test_casino_credits_read_as_winnings_not_debts():
    """Every seat's wallet starts at 0 with its bet in the pot, on the standings, the grid
    and game over; the winner's ends with the pot. Breaks with the old net credits (-10
    at the start, "Cr" on the grid, "cred" at game over)."""
    r = Rig()
    g = r.new_game((HUMAN, HUMAN), CASINO5, begin=False)
    bet = g.options.bet
    assert g.credits == [-bet, -bet]  # the game's own count is unchanged: net
    r.app.go("scores")
    assert "won" in words(r.app)
    on_won_column = [n for n, xr, y in numbers(r.app, "rnum") if xr == 84 and y >= 16]
    assert on_won_column == [0, 0]
    seen = []
    for _ in range(r.app.screen.pages()):
        seen += words(r.app)
        r.d.press(K.B_DOWN)
    assert "Credits won" in seen and "Cr" not in seen
    r.d.press(K.B_MENU)
    finish(r.app)
    assert r.app.screen.NAME == "over"
    w = words(r.app)
    assert "won" in w and "cred" not in w
    won = {n for n, xr, y in numbers(r.app, "rnum") if xr == 84 and y >= 16}
    assert all(n >= 0 for n in won)
    assert max(won) >= 2 * bet  # the pot went to the winner's wallet
    assert [row_sum(g, s, ROW_CREDITS) for s in range(2)] == [c + bet for c in g.credits]


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
    (FULL, "hold Menu", "123456RUDOM", "1-6: hold  OK: pick"),
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
