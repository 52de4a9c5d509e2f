"""Every key documented, and every documented key real: README's "Simulator keys" and the
terminal's legend against board_term's key map, the web page's key help against its own
map, and the Wokwi README against the diagram's keys and what `make sim` does with them."""

import json
import re

import board_term

from picoyacht import buttons as K
from picoyacht.buttons import BUTTON_NAMES

from conftest import ROOT

# A key's name as the documents write it, for keys that are not one printable character.
NAMED = {" ": "space", "\r": "enter", "\n": "enter", "\x7f": "backspace", "\x03": "ctrl-c"}


def names(keys):
    return {NAMED.get(k, k).lower() for k in keys}


def expand(tokens):
    """Lower-case key names; "1-6" style ranges become each key."""
    out = set()
    for t in tokens:
        m = re.fullmatch(r"(\w)-(\w)", t)
        if m:
            out |= {chr(c) for c in range(ord(m[1]), ord(m[2]) + 1)}
        else:
            out.add(t.lower())
    return out


def readme_sim_keys():
    text = (ROOT / "README.md").read_text()
    para = text[text.index("**Simulator keys:**"):]
    para = para[:para.index("\n\n")].split("`make sim")[0]
    para = re.sub(r"`(\w)`-`(\w)`", r"`\1-\2`", para)  # `1`-`6`: a range
    keys = expand(re.findall(r"`([^`]+)`", para))
    keys |= {w for w in ("space", "enter", "backspace") if w in para.lower()}
    keys |= {"escape"} if " Esc " in para else set()
    keys |= {"arrows"} if "arrow keys" in para else set()
    return keys


# The keys read as escape sequences, as the documents name them: the arrows and Esc.
SEQUENCE_KEYS = {"arrows", "escape"}


def test_readme_names_every_simulator_key_and_no_other():
    """Breaks if a key is added to (or dropped from) board_term's map without README, as
    `O`, `r`, `o` and `b` once were."""
    code = names(board_term.KEYS_FULL) | {"q"}  # q quits (Ctrl-C too, as everywhere)
    assert readme_sim_keys() == code | SEQUENCE_KEYS
    assert set(board_term.QUIT_KEYS) == {"q", "\x03"}


def legend_keys(legend):
    """The keys a terminal legend names: "w/s,k/j,↑↓:move", "spc/r:roll", "1-6:hold"."""
    short = {"spc": "space", "bs": "backspace", "esc": "escape", "ent": "enter", "↑↓": "arrows"}
    keys = set()
    for pair in legend.split(" "):
        named, _, action = pair.partition(":")
        if named == "CAPS":  # a capital letter is a long press: not a key of its own
            continue
        assert action, pair
        for part in named.replace(",", "/").split("/"):
            assert len(part) == 1 and part.isalnum() or part in short \
                or re.fullmatch(r"\d-\d", part), pair
            keys |= expand([short.get(part, part)])
    return keys


def test_terminal_legends_name_each_builds_keys():
    """The legend under the panel names exactly the keys that build's map has (and q).
    Breaks if a key is added to one and not the other."""
    both = {"q"} | SEQUENCE_KEYS
    assert legend_keys(board_term.LEGEND_FULL) == names(board_term.KEYS_FULL) | both
    assert legend_keys(board_term.LEGEND_FOUR) == names(board_term.KEYS_FOUR) | both
    # a 5-dice game's: every key but the sixth hold, which holds no die there
    assert board_term.KEYS_FULL["6"] == K.B_HOLD1 + 5
    assert legend_keys(board_term.LEGEND_FIVE) == names(board_term.KEYS_FULL) - {"6"} | both
    assert set(board_term.SEQUENCES.values()) == {K.B_UP, K.B_DOWN}  # what "arrows" are
    assert board_term.ESC_BUTTON == K.B_MENU
    assert set(board_term.KEYS_FOUR.values()) == {7, 8, 9, 10}  # Up, Down, A, B
    for legend in (board_term.LEGEND_FULL, board_term.LEGEND_FIVE, board_term.LEGEND_FOUR):
        assert len(legend) < 80  # whole in an 80-column terminal (its last column is kept)


def js_map(text, name):
    """The keys of a `const NAME = { ... };` object literal in page.js."""
    body = text[text.index("const " + name + " = {"):]
    body = body[body.index("{") + 1:body.index("};")]
    return {k.strip('"') for k in re.findall(r'("[^"]+"|\w+):', body)}


def test_web_page_key_help_matches_its_map():
    """The page's <kbd> keys (and "arrows") are its map's keys, which are the simulator's
    plus arrows and Esc, as README promises ("the simulator's keys"). Breaks if the page
    drops a simulator key or documents one it does not have."""
    text = (ROOT / "tools" / "web" / "page.js").read_text()
    web = names(js_map(text, "KEYS_FULL"))
    text = re.sub(r"<kbd>(\w)</kbd>-<kbd>(\w)</kbd>", r"<kbd>\1-\2</kbd>", text)
    kbd = expand(re.findall(r"<kbd>([^<]+)</kbd>", text))
    kbd = {"escape" if k == "esc" else k for k in kbd}
    documented = kbd | ({"arrowup", "arrowdown"} if "arrows up/down" in text else set())
    assert documented == web
    assert names(board_term.KEYS_FULL) <= web


def test_wokwi_keys_are_documented_and_do_the_same_in_the_simulator():
    """Each pushbutton's key in the Wokwi diagram is the one its README lists, and `make
    sim`'s full build maps that key to the same button: the README's "the same keys as make
    sim" holds. Breaks with the old full map, which had no `a`."""
    diagram = json.loads((ROOT / "hardware" / "wokwi" / "diagram.json").read_text())
    keys = {}
    for part in diagram["parts"]:
        key = part.get("attrs", {}).get("key")
        if key:
            keys[key.lower()] = BUTTON_NAMES.index(part["id"].replace("btn_", ""))
    readme = (ROOT / "hardware" / "wokwi" / "README.md").read_text()
    para = readme[readme.index("Each button has a keyboard key"):]
    para = para[:para.index("\n\n")]
    bold = re.findall(r"\*\*([^*]+)\*\*", para)  # "**1**-**6**" first: a range
    assert para.startswith("Each button has a keyboard key") and "**1**-**6**" in para
    documented = expand(["%s-%s" % (bold[0], bold[1])]) | {b.lower() for b in bold[2:]}
    assert documented == set(keys)
    for key, button in keys.items():
        assert board_term.KEYS_FULL[key] == button, key
