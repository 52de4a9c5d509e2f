"""Box names a player reads: full wherever the row has room, a short form in words where
not, and never a two-letter code. Exhaustive over every rule set's boxes and card rows,
at every room a screen gives them; then through the real App on the headless board."""

import pytest
from board_sim import FULL
from test_ux import Rig, words

from picoyacht import buttons as K
from picoyacht import scores
from picoyacht.game import HUMAN
from picoyacht.labels import NOTE, SHORT_MAX, fit, row_label, short_name, take_words
from picoyacht.policy import A_SCORE
from picoyacht.rules import COUNT, MAXI, NAME, RULESETS
from picoyacht.screens import CELL, ROW_UPPER, W, card_rows

ALL_NAMES = sorted({box[NAME] for rid in range(COUNT) for box in RULESETS[rid].boxes})
GRID_ROOMS = [scores.label_room(shown) for shown in (1, 2, 3)]
CARD_ROOM = 15  # card.Card: the label from x=8, a 3-digit value right-aligned at W


def test_every_short_form_is_words_that_fit():
    """Breaks if a box name longer than SHORT_MAX has no short form of its own (it would
    be cut), or a short form is too long or a bare code such as "4K"."""
    for name in ALL_NAMES:
        short = short_name(name)
        assert len(short) <= SHORT_MAX, name
        if len(name) > SHORT_MAX:
            assert short != name[:SHORT_MAX], name  # a form of its own, not a cut
        assert any(len(word) > 2 for word in short.split()), (name, short)


@pytest.mark.parametrize("rid", range(COUNT))
def test_every_label_fits_every_row_that_shows_it(rid):
    """Each box and card row of each rule set, at each room the scores grid gives with 1,
    2 or 3 seats, on the card and on the hand-over's line: the full name if it fits, else
    the short form, never longer than the room. Breaks if a room grows past what the row
    holds or a name gets longer than the card's row."""
    rs = RULESETS[rid]
    assert 8 + CARD_ROOM * CELL <= W - 3 * CELL - CELL  # label, a gap, a 3-digit value
    for code in card_rows(rs):
        for room in GRID_ROOMS + [CARD_ROOM]:
            if code < ROW_UPPER:
                name = rs.boxes[code][NAME]
                label = fit(name, room)
                assert label in (name, short_name(name))
                assert label == name or len(name) > room
                assert len(name) <= CARD_ROOM  # the card always says it in full
            else:
                label = row_label(code - ROW_UPPER, room)
            assert 0 < len(label) <= room, (rs.name, code, room, label)
    assert min(GRID_ROOMS) >= 8  # every short form, "Y bonus" and "Wallet"


def test_grid_columns_hold_a_four_digit_total():
    """Breaks if the label column leaves a seat less than 4 digits and a gap."""
    for nseats in range(1, 7):
        for part in range(scores.seat_pages(nseats)):
            shown = scores.first_of(nseats, part + 1) - scores.first_of(nseats, part)
            assert 1 <= shown <= 3
            lw = scores.label_room(shown) * CELL + 2
            assert (W - lw) // shown >= 4 * CELL + 2
        assert scores.first_of(nseats, 0) == 0
        assert scores.first_of(nseats, scores.seat_pages(nseats)) == nseats


def test_take_words_fit_a_row_with_a_whole_label():
    """Every box, with a 1- to 3-digit score: the move fits the note's 21 characters and
    names the box in full or in its short form. Breaks if "Take" is kept on a name
    that then overflows, or a short form grows."""
    for name in ALL_NAMES:
        for pts in ("0", "25", "100"):
            text = take_words(name, pts)
            assert len(text) <= NOTE, text
            assert text.endswith(" " + pts)
            assert name in text or short_name(name) in text
    assert take_words("Chance", "23") == "Take Chance 23"
    assert take_words("Four of a kind", "22") == "Four of a kind 22"
    assert take_words("Three of a kind", "100") == "Three of a kind 100"


def test_no_screen_module_draws_a_box_code():
    """The two-letter codes are the rules' identifiers, not words: breaks if a screen
    draws rules.ABBR again."""
    from conftest import ROOT

    for mod in ("play", "card", "handover", "turn", "labels", "screens", "coach"):
        assert "ABBR" not in (ROOT / "firmware" / "picoyacht" / (mod + ".py")).read_text()


# ---------------------------------------------------------------- through the App
def test_hint_names_the_box_in_words():
    """A hint to score four 5s: "Four of a kind 22" (no room for "Take"), the average on
    its own row, never "4K". Breaks with the old "Take " + ABBR text."""
    r = Rig(FULL, coach=1)
    g = r.new_game()
    r.d.press(K.B_ROLL)
    g.dice[:] = bytes((5, 5, 5, 5, 2))
    four = [box[NAME] for box in g.rs.boxes].index("Four of a kind")
    coach = r.app.turn.coach
    coach.advise = lambda game: (A_SCORE, four, 24530)  # the advice, whatever the search
    coach.exact = lambda game: True  # from Expert's table, whether or not one is here
    r.app.screen.hint()
    assert r.app.status.text == "Four of a kind 22\nFinal total avg 245.3"
    coach.advise = lambda game: (A_SCORE, four, -1)  # no average: the move alone
    r.app.screen.hint()
    assert r.app.status.text == "Four of a kind 22"


def test_scores_grid_says_rows_in_words():
    """A solo Yahtzee's grid: full box and row names ("Three of a kind", "Upper total",
    "Yahtzee bonus", "Total"); no "Up", "Bn", "YB", "Tot". Breaks with the old labels."""
    r = Rig()
    r.new_game()
    r.app.go("scores")
    seen = []
    for _ in range(r.app.screen.pages()):
        seen += words(r.app)
        r.d.press(K.B_DOWN)
    for full in ("Three of a kind", "Large straight", "Upper total", "Upper bonus",
                 "Yahtzee bonus", "Total"):
        assert full in seen, seen
    for code in ("Up", "Bn", "YB", "Tot", "3K", "LS"):
        assert code not in seen


def test_scores_grid_with_three_seats_uses_short_forms():
    """Three seats leave 8 characters: "3 kind", "Y bonus". Breaks if the grid cuts a
    long name ("Three of") instead."""
    r = Rig()
    r.new_game((HUMAN, HUMAN, HUMAN))
    r.app.go("scores")
    seen = []
    for _ in range(r.app.screen.pages()):
        seen += words(r.app)
        r.d.press(K.B_DOWN)
    assert "3 kind" in seen and "Y bonus" in seen and "Upper" in seen
    assert not any(s.startswith("Three of") for s in seen)


def test_maxi_card_names_every_box_in_full():
    """The card of the rule set with the most boxes names each in full, and the rows below
    them too. Breaks if the card cuts a name (its room was 14: "Three of a kin")."""
    r = Rig()
    g = r.new_game((HUMAN,), MAXI)
    r.d.press(K.B_ROLL)
    r.d.press(K.B_OK)
    assert r.app.screen.NAME == "card"
    seen = []
    for _ in range(len(r.app.screen.rows)):
        seen += words(r.app)
        r.d.press(K.B_DOWN)
    for box in g.rs.boxes:
        assert box[NAME] in seen
    assert "Upper total" in seen and "Upper bonus" in seen
