"""The repository's documents: links that resolve inside a clone, a rules page that covers
every game and box the firmware plays, a licence, and a README for players and builders:
short, and naming only make targets that exist."""

import re

import pytest

from picoyacht import rules

from conftest import ROOT

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")),
        *sorted((ROOT / "hardware").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
README_WORDS = 2000
# `make X` and `make X VAR=...` wherever the README gives a command
MAKE = re.compile(r"\bmake ((?:[a-z][\w-]*)(?: [A-Z]+=(?:\"[^\"]*\"|\S+))*)")


def make_commands(text):
    """Every make command the text gives, as typed (target first)."""
    return sorted(set(MAKE.findall(text)))


def makefile_targets():
    return set(re.findall(r"^([a-z][\w-]*)\s*:(?!=)", (ROOT / "Makefile").read_text(), re.M))


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve_inside_the_repository(doc):
    for target in LINK.findall(doc.read_text()):
        if "://" in target or target.startswith("mailto:"):
            continue
        path = (doc.parent / target).resolve()
        assert path.is_relative_to(ROOT), (doc.name, target)  # not ../shared or beyond
        assert path.exists(), (doc.name, target)


def test_rules_page_names_every_game_and_box():
    text = (ROOT / "docs" / "RULES.md").read_text().lower()
    for rid in range(rules.COUNT):
        rs = rules.RULESETS[rid]
        assert rs.name.lower() in text, rs.name
        # the casino games are described by their differences from Yatzy and Maxi Yatzy
        head = re.search(r"^## \d\. .*" + re.escape(rs.name.lower()), text, re.M)
        section = text if rs.casino else text[head.start():]
        for box in rs.boxes:
            name = box[rules.NAME].lower()
            assert name in section or name in ("ones", "twos", "threes", "fours", "fives",
                                               "sixes", "aces"), (rs.name, name)
        assert "%d boxes" % rs.nboxes in text or rs.casino, rs.name


def test_readme_links_the_rules_and_the_licence():
    readme = (ROOT / "README.md").read_text()
    assert "](docs/RULES.md)" in readme and "](LICENSE)" in readme
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert "OWNER/REPO" not in readme


def test_readme_is_short():
    words = len((ROOT / "README.md").read_text().split())
    assert words <= README_WORDS, words


def test_every_make_target_the_readme_names_exists():
    commands = make_commands((ROOT / "README.md").read_text())
    named = {c.split()[0] for c in commands}
    assert {"sim", "test"} <= named  # the two commands
    missing = named - makefile_targets()
    assert not missing, missing



def test_make_commands_are_found_as_typed():
    """The negative control of the reader: a target the Makefile lacks is caught."""
    text = 'run `make sim SIMARGS="--buttons 4"`, then make test; make nosuch -j\n'
    assert make_commands(text) == ["nosuch", 'sim SIMARGS="--buttons 4"', "test"]
    assert "nosuch" not in makefile_targets() and "sim" in makefile_targets()


def power_model_rows(report):
    """docs/PERFORMANCE.md's power model rows: {(board, cells): (play hours low, high,
    days asleep low, high)}."""
    rows = re.findall(r"^\| power model, (Pico(?: W| 2)?), (3xAAA|lipo) \([^|]*\| *\| play "
                      r"(\d+)-(\d+) h, asleep (\d+)-(\d+) days", report, re.M)
    got = {(board, cells): tuple(map(int, figures)) for board, cells, *figures in rows}
    assert len(got) == 6, rows
    return got


def quoted_battery_life(report):
    """What the README must quote: hours of play per cells for the Pico and Pico W together
    (their widest range) and the Pico 2, and days asleep on 3xAAA."""
    got = power_model_rows(report)

    def span(boards, cells, first):
        lows = [got[b, cells][first] for b in boards]
        highs = [got[b, cells][first + 1] for b in boards]
        return "%d-%d" % (min(lows), max(highs))

    pico, pico2 = ("Pico", "Pico W"), ("Pico 2",)
    return (span(pico, "3xAAA", 0), span(pico, "lipo", 0), span(pico2, "3xAAA", 0),
            span(pico2, "lipo", 0), span(pico, "3xAAA", 2), span(pico2, "3xAAA", 2))


def test_the_readmes_battery_life_is_the_reports():
    """A battery life appears in the README only as the bench's power model measured it:
    the README's ranges are docs/PERFORMANCE.md's. Negative control: the README's figures
    before the model's last run (play 46-111 h on 3xAAA) fail this."""
    readme = " ".join((ROOT / "README.md").read_text().split())
    said = re.search(r"play (\S+) h on 3xAAA, (\S+) h on the LiPo \(Pico 2: (\S+), (\S+)\)\. "
                     r"Asleep on 3xAAA: (\S+) days \(Pico 2: (\S+), estimated\)", readme)
    assert said, "the README's battery life is not where this test reads it"
    report = (ROOT / "docs" / "PERFORMANCE.md").read_text()
    assert said.groups() == quoted_battery_life(report)


def test_the_boms_battery_table_is_the_reports():
    """hardware/BOM.md's table of hours of play and days asleep per board is the power model's
    in docs/PERFORMANCE.md. Negative control: the table before the model's last run (Pico
    46-111 h on 3xAAA) fails this."""
    bom = (ROOT / "hardware" / "BOM.md").read_text()
    table = re.findall(r"^\| (Pico(?: W| 2)?) \| (\d+)-(\d+) h \| (\d+)-(\d+) h \| [^|]*: "
                       r"(\d+)-(\d+) days", bom, re.M)
    assert len(table) == 3, table
    got = power_model_rows((ROOT / "docs" / "PERFORMANCE.md").read_text())
    for board, *figures in table:
        aaa, lipo = got[board, "3xAAA"], got[board, "lipo"]
        assert tuple(map(int, figures)) == (*aaa[:2], *lipo[:2], *aaa[2:]), board
