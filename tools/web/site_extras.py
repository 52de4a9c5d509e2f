"""What makes the built site a page a phone can install and play offline, made at build
time: icons drawn by the firmware's own Canvas (a held die, as on the title screen), the web
app manifest, the rules panel's data (box_help's words, the device's own help), the site's
version, and the service worker's list of files to keep."""

import json
import subprocess

import framebuf
from shots import encode_png

from picoyacht import box_help
from picoyacht.rules import NAME, RULESETS, Options
from picoyacht.screens import Canvas

ICON = 24  # OLED pixels across an icon: the 17-pixel die and a margin
ICON_SIZES = (192, 512)
LIT = (150, 220, 255)  # the page's panel colours (page.js)
CASE = (35, 39, 46)
NAME_LONG = "PicoYacht"


def die_pixels():
    """The firmware's held die with five pips, as rows of 0/1 (ICON x ICON)."""
    buf = bytearray(ICON * ((ICON + 7) // 8))
    fb = framebuf.FrameBuffer(buf, ICON, ICON, framebuf.MONO_VLSB)
    Canvas(fb, buf).die((ICON - 17) // 2, (ICON - 17) // 2, 5, True)
    return [[fb.pixel(x, y) for x in range(ICON)] for y in range(ICON)]


def icon_png(size):
    """A square icon of `size` px: the die's pixels scaled up whole, centred on the case."""
    px = die_pixels()
    scale = size // ICON
    pad = (size - ICON * scale) // 2
    rows = []
    for y in range(size):
        oy = (y - pad) // scale if pad <= y < pad + ICON * scale else -1
        line = bytearray(b"\0")
        for x in range(size):
            ox = (x - pad) // scale if pad <= x < pad + ICON * scale else -1
            line += bytes(LIT if oy >= 0 and ox >= 0 and px[oy][ox] else CASE)
        rows.append(bytes(line))
    return encode_png(size, size, rows)


def manifest():
    return {
        "name": NAME_LONG + ": dice games in your browser",
        "short_name": NAME_LONG,
        "description": "The Yahtzee-family handheld's own MicroPython firmware, in a page.",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "orientation": "any",
        "background_color": "#101215",
        "theme_color": "#23272e",
        "icons": [{"src": "icon-%d.png" % s, "sizes": "%dx%d" % (s, s), "type": "image/png",
                   "purpose": "any"} for s in ICON_SIZES],
    }


def rules():
    """Every game for the page's rules panel: its boxes in box_help's words, the upper
    bonus from the rule set, and the other rules its flags call for."""
    games = []
    for rs in RULESETS:
        boxes = [(rs.boxes[i][NAME],) + box_help.box_words(rs.id, i) for i in range(rs.nboxes)]
        notes = [box_help.upper_bonus_words(rs, Options()) + "."]
        for flag, text in ((rs.joker, box_help.JOKER), (rs.sharp, box_help.SHARP),
                           (rs.bonus_option, box_help.BONUS_OPTION),
                           (rs.saved_rolls, box_help.SAVED), (rs.casino, box_help.CASINO),
                           (rs.rolloff, box_help.ROLLOFF)):
            if flag:
                notes.append(text.decode())
        games.append({"id": rs.id, "name": rs.name, "dice": rs.ndice, "boxes": boxes,
                      "notes": notes})
    return games


def version(root):
    """The package's version and, in a git checkout, its commit: what the page shows."""
    v = json.loads((root / "package.json").read_text())["version"]
    try:
        r = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=root,
                           capture_output=True, text=True, timeout=10)
    except OSError:
        return v
    return v + "+" + r.stdout.strip() if r.returncode == 0 and r.stdout.strip() else v


def write(out, root, sw_source, project_url=""):
    """The extras into the built site `out`: icons, manifest, rules (and docs/RULES.md and
    the README as text), the version and the project's address in the page, and the service
    worker with every file of the site but the tables (kept as they are fetched)."""
    for s in ICON_SIZES:
        (out / ("icon-%d.png" % s)).write_bytes(icon_png(s))
    (out / "manifest.webmanifest").write_text(json.dumps(manifest(), indent=1))
    (out / "rules.json").write_text(json.dumps(rules()))
    (out / "rules.txt").write_text((root / "docs" / "RULES.md").read_text())
    (out / "readme.txt").write_text((root / "README.md").read_text())
    ver = version(root)
    page = out / "index.html"
    html = page.read_text().replace('<span data-version="">dev</span>',
                                    '<span data-version="%s">%s</span>' % (ver, ver))
    if project_url:
        html = html.replace('<a id="project" href="readme.txt">',
                            '<a id="project" href="%s">' % project_url)
    page.write_text(html)
    keep = ["./"] + sorted(f.relative_to(out).as_posix() for f in out.rglob("*")
                           if f.is_file() and f.parts[len(out.parts)] != "tables")
    sw = sw_source.read_text()
    sw = sw.replace('const VERSION = "dev";', "const VERSION = %s;" % json.dumps(ver))
    sw = sw.replace("const FILES = [];", "const FILES = %s;" % json.dumps(keep))
    (out / "sw.js").write_text(sw)
    return ver
