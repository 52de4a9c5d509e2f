"""The repository's documents: links that resolve inside a clone, a rules page that covers
every game and box the firmware plays, and a licence."""

import re

import pytest

from picoyacht import rules

from conftest import ROOT

DOCS = [ROOT / "README.md", ROOT / "docs" / "RULES.md", *sorted((ROOT / "hardware").glob("*.md"))]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


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
