"""Logical buttons: bit i of a raw mask, and the low nibble of an event.

A build maps GPIOs onto them by name (config.BUTTONS); the boards need only this module.
Up, Down, OK and Menu are enough: everything the hold and Roll buttons do is also
reachable with the play screen's cursor.
"""

from micropython import const

B_HOLD1 = const(0)  # .. B_HOLD1 + 5
B_ROLL = const(6)
B_UP = const(7)
B_DOWN = const(8)
B_OK = const(9)  # "A" on a 4-button build
B_MENU = const(10)  # "B" on a 4-button build
NBUTTONS = const(11)
BUTTON_NAMES = ("hold1", "hold2", "hold3", "hold4", "hold5", "hold6", "roll", "up", "down",
                "ok", "menu")
MIN_BUTTONS = const(0x780)  # Up, Down, OK and Menu
FULL_BUTTONS = const(0x7FF)
