"""PicoYacht pin map: the one file a builder edits. Copied next to main.py.

Buttons are wired from the GPIO to GND (active low); the firmware turns on the internal
pull-ups, so no resistors are needed. A button set to None is not fitted: the game stays
fully playable with just up, down, ok ("A") and menu ("B") through its cursor mode.
Pins 23, 24, 25 and 29 are avoided: the Pico W uses them for its radio.
A value the Pico cannot use is named on the boot screen and its built-in value is used
instead; `make hardware` checks this file the same way before it is copied.
"""

# SSD1306 128x64 OLED on I2C0: SDA = GP4 (pin 6), SCL = GP5 (pin 7).
I2C_ID = 0
SDA = 4
SCL = 5
I2C_FREQ = 400000
OLED_ADDR = 0x3C
OLED_FLIP = False  # True if the panel is mounted upside down

# Full build: 11 buttons. GPIO (physical pin).
BUTTONS = {
    "hold1": 6,  # pin 9
    "hold2": 7,  # pin 10
    "hold3": 8,  # pin 11
    "hold4": 9,  # pin 12
    "hold5": 10,  # pin 14
    "hold6": 11,  # pin 15
    "roll": 12,  # pin 16
    "up": 13,  # pin 17
    "down": 14,  # pin 19
    "ok": 15,  # pin 20  ("A")
    "menu": 16,  # pin 21  ("B")
}

# Minimal build: uncomment this line (same wiring for the four that remain).
# BUTTONS = {"up": 13, "down": 14, "ok": 15, "menu": 16}

# Optional extras. PIEZO: GPIO of a passive piezo (e.g. 17, pin 22), None if not fitted.
# BATTERY_SENSE: True on LiPo builds; diagnostics then shows VSYS (read on GP29/ADC3).
PIEZO = None
BATTERY_SENSE = False

# Button sampling: "timer" (a hard machine.Timer IRQ into a ring buffer: keeps sampling
# while the display is being written) or "loop" (sampled once per main-loop pass).
SAMPLING = "timer"
SAMPLE_MS = 2

# Watchdog: resets a hung Pico (then the game resumes from its last save). WDT_MS is the
# timeout (the RP2040's longest is 8388 ms); 0 turns the watchdog off, e.g. while
# developing. WDT_GRACE_MS: how long one slow step (a CPU move, a save) may run before
# the loop counts as hung.
WDT_MS = 8000
WDT_GRACE_MS = 8000

# Power: after SLEEP_MIN minutes without a press (and on the menu's "Power off") the game
# is saved, the display goes off and the Pico sleeps until any button; 0 = never sleep.
SLEEP_MIN = 5

# Soft power (optional, hardware/BOM.md "Soft power"): GPIO that holds on a P-MOSFET latch
# between the cells and VSYS, which a power button turns on. Fitted, sleep and "Power off"
# let it go: the power is cut (the cells then last for years, not weeks) and the power
# button, not any button, brings the game back from its save. None: not fitted (e.g. 18,
# pin 24); the Pico then sleeps DORMANT and any button wakes it.
POWER_HOLD = None

# Where saves live on the Pico's flash filesystem.
SAVE_DIR = "/saves"
