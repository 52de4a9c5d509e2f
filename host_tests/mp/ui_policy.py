"""How the scripted player chooses, shared by the host scripts (ui_play, the stress rig)
and the emulated Pico's player (tools/pico_probe.py): the app's own fallback choices
(hold the most common face, score the box worth most now), so there is one copy."""

from picoyacht.app import _best_box as best_box  # noqa: F401
from picoyacht.app import _most_common_mask as want_mask  # noqa: F401
