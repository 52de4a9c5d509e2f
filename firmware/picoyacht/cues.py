"""What the game wants heard or shown, by name: the sound ids, the volume levels, and how
long a note stays.

Screens, the app and the settings name sounds through this module; picoyacht.sound (the
tone tables and the Player) is imported only when a piezo is fitted, so a build without
one never carries it.
"""

from micropython import const

# The sounds (indexes into sound.SOUNDS and sound.PRIORITY), named SOUND_ so that none reads
# as the move, box or rule set of the same name.
SOUND_HOLD = const(0)  # a die held or released: a click
SOUND_ROLL = const(1)  # the dice rattle for as long as the roll animation (play.py's frames)
SOUND_SCORE = const(2)  # a box scored with points
SOUND_SCRATCH = const(3)  # a box scored with 0
SOUND_YAHTZEE = const(4)  # a Yahtzee / Yatzy (5 or 6 of a kind) scored: the fanfare
SOUND_GAME_OVER = const(5)
NSOUNDS = const(6)  # how many sounds

# Volume levels: the settings screen shows VOLUME_NAMES, the Player takes the index.
VOLUME_NAMES = ("Off", "Low", "Mid", "High")
VOLUME_DEFAULT = const(2)

# How long a note stays (screens.Note): a while; until the next key, which then acts as usual
# (a coach's tip, read at the player's pace); or until the next move replaces it (a hint).
NOTE_TIMED = const(0)
NOTE_KEY = const(1)
NOTE_MOVE = const(2)
