"""The words for every box (firmware/picoyacht/box_help.py) against the rules they describe,
against docs/RULES.md's tables, and as the scorecard shows them: the one source the device's
help, the page's rules panel and the rules page share cannot drift from any of them."""

import re
import sys
from pathlib import Path

import pytest
from board_sim import FOUR, FULL
from test_ux import Rig, words

from picoyacht import box_help
from picoyacht import buttons as K
from picoyacht.game import HUMAN, Game
from picoyacht.menus import wrap
from picoyacht.roller import Roller
from picoyacht.rules import (
    ALL,
    ALL_PLUS,
    ARG_A,
    CASINO5,
    CASINO6,
    COUNT,
    DELUXE,
    FIXED,
    KIND,
    MAXI,
    MODE,
    NAME,
    RULESETS,
    UPPER,
    VALUE,
    YAHTZEE,
    YATZY,
    Options,
)
from picoyacht.screens import card_rows

ROOT = Path(__file__).resolve().parent.parent
# RULES.md's section of each game's table; Casino's rows there are the ones it changes.
SECTION = {YAHTZEE: "1", YATZY: "2", MAXI: "4", DELUXE: "5", CASINO5: "2", CASINO6: "4"}
CHANGES = {CASINO5: "Casino 5", CASINO6: "Casino 6"}


def rules_tables():
    """{section number: [(box, needs, score), ...]} from docs/RULES.md."""
    out = {}
    section = None
    for line in (ROOT / "docs" / "RULES.md").read_text().splitlines():
        m = re.match(r"## (\d)\. ", line)
        if m:
            section = m[1]
        elif line.startswith("## "):
            section = None
        elif section and line.startswith("| ") and not line.startswith("| box"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out.setdefault(section, []).append(tuple(cells))
    return out


def documented(rid, tables):
    """{box index: (needs, score)} as RULES.md gives them for rule set rid."""
    rs = RULESETS[rid]
    names = [b[NAME] for b in rs.boxes]
    rows = list(tables[SECTION[rid]])
    if rid in CHANGES:
        tag = " (%s)" % CHANGES[rid]
        rows += [(box[:-len(tag)], needs, score) for box, needs, score in tables["3"]
                 if box.endswith(tag)]
    out = {}
    for box, needs, score in rows:
        if ".." in box:  # "Aces .. Sixes": the upper section
            for i in range(6):
                out[i] = (needs, score)
        else:
            out[names.index(box)] = (needs, score)
    return out


@pytest.mark.parametrize("rid", range(COUNT))
def test_every_box_reads_as_rules_md_gives_it(rid):
    """Breaks if a box's words change on one side only, or a box is missing from either."""
    rs = RULESETS[rid]
    assert len(box_help.BOXES[rid]) == rs.nboxes
    docs = documented(rid, rules_tables())
    assert sorted(docs) == list(range(rs.nboxes))
    for i in range(rs.nboxes):
        assert box_help.box_words(rid, i) == docs[i], rs.boxes[i][NAME]


@pytest.mark.parametrize("rid", range(COUNT))
def test_every_score_in_words_is_the_scorers(rid):
    """A fixed score names its value, "sum + 50" is the sum plus that value, a sum is a
    sum: the words agree with the table the scorer reads."""
    for i, box in enumerate(RULESETS[rid].boxes):
        _, scores = box_help.box_words(rid, i)
        mode = box[MODE]
        if box[KIND] == UPPER:
            assert scores == "total of that face"
        elif mode == FIXED:
            assert scores == str(box[VALUE]), box[NAME]
        elif mode == ALL_PLUS:
            assert scores == "sum + %d" % box[VALUE], box[NAME]
        elif mode == ALL:
            assert scores.startswith("sum"), box[NAME]
        else:  # MATCHED: the dice that make it, which may be all of them
            parts, used = box[ARG_A], 0
            while parts:
                used += parts & 15
                parts >>= 4
            whole = used == RULESETS[rid].ndice
            assert scores.startswith("sum" if whole else ("those", "the highest")), box[NAME]


def shown(screen):
    """The help screen's rows as text: the box's name, then what it composed."""
    rows = [bytes(screen.rows[i][:screen.lens[i]]).decode() for i in range(screen.nrows)]
    return [screen.name + rows[0]] + rows[1:]


def sentences(game, code):
    """A card row's help as the rules and the page give it, before the screen breaks it."""
    rs = game.rs
    if code >= rs.nboxes:
        return [box_help.upper_bonus_words(rs, game.options) + "."]
    needs, scores = box_help.box_words(rs.id, code)
    return [rs.boxes[code][NAME] + ": " + needs + ";", "scores " + scores + "."]


@pytest.mark.parametrize("present,menu", [(FULL, "Menu"), (FOUR, "B")])
def test_a_held_menu_on_the_scorecard_explains_the_box_under_the_cursor(present, menu):
    """The card says how to ask; a held Menu shows the box's name, needs and score, and
    OK comes back to the same row. box_help is loaded once the card shows (so the long
    press loads nothing) and leaves the heap with the box scored. A short Menu still goes
    back to the dice."""
    sys.modules.pop("picoyacht.box_help", None)
    r = Rig(present)
    g = r.new_game((HUMAN,), MAXI)
    r.d.press(K.B_ROLL if present == FULL else K.B_OK)
    r.d.run_ms(400)
    app = r.app
    card = app.go("card")
    assert "Hold %s: box help" % menu in words(app)
    r.d.run_ms(100)
    assert "picoyacht.box_help" in sys.modules
    rows = bytes(card.rows)
    tower = [b[NAME] for b in g.rs.boxes].index("Tower 4+2")
    card.row = rows.index(tower)
    r.d.press(K.B_MENU, hold=1000)
    assert app.screen.NAME == "box_help"
    assert " ".join(shown(app.screen)) == ("Tower 4+2: four alike and a pair of another face; "
                                           "scores sum of all six.")
    assert "%s: back" % ("OK" if present == FULL else "A") in words(app)
    r.d.press(K.B_OK)
    assert app.screen is card and card.row == rows.index(tower)
    r.d.press(K.B_MENU)
    assert app.screen.NAME == "play"
    r.d.press(K.B_OK if present == FULL else K.B_MENU)  # the card again, and a box scored
    app.go("card")
    r.d.run_ms(100)
    turn = g.turn
    while g.turn == turn:
        r.d.press(K.B_OK)
    assert "picoyacht.box_help" not in sys.modules


@pytest.mark.parametrize("rid", range(COUNT))
def test_every_row_of_every_game_reads_as_a_note_breaks_its_words(rid):
    """Each row of the card, boxes and sums, opens a help whose rows are its sentences
    broken as menus.wrap breaks a note (the name never breaks), within the screen's rows
    and its sentence buffer (a longer one raises), in ASCII. Negative controls: a cut one
    column later in BoxHelp._wrap, or the upper bonus composed without its "+", fail here."""
    for options in (Options(), Options(bonus100=True)):
        game = Game(RULESETS[rid], ["A"], bytes(1), options, Roller(1), 1)
        screen = box_help.BoxHelp(Rig().app)
        for code in card_rows(game.rs):
            screen.explain(game, code)
            want = wrap(sentences(game, code), 21)
            assert shown(screen) == want, code
            assert len(want) <= 5
    assert all(b < 128 for b in box_help._LINES)


@pytest.mark.parametrize("rid", range(COUNT))
def test_every_box_of_every_game_has_its_help_screen(rid):
    """Each row of the card, boxes and sums, opens a help that fits the screen."""
    r = Rig()
    r.new_game((HUMAN,), rid)
    app = r.app
    r.d.press(K.B_ROLL)
    r.d.run_ms(400)
    card = app.go("card")
    for i in range(len(card.rows)):
        card.row = i
        r.d.press(K.B_MENU, hold=1000)
        assert app.screen.NAME == "box_help", i
        lines = shown(app.screen)
        assert 1 <= len(lines) <= 5 and all(len(x) <= 21 for x in lines)
        r.d.press(K.B_OK)
        assert app.screen is card
