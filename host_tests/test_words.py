"""Words a player understands, through the real App on the headless board: setup's player
types in their order, credits as winnings, the standings page, the roll-off shown."""

from test_ux import Rig, words

from picoyacht import menus, newgame
from picoyacht.game import HUMAN
from picoyacht.saves import Settings
from picoyacht.screens import KIND_NAMES


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
