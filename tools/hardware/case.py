"""`make case`: a printable case and a perfboard plan, from config.py and hardware/layout.py.

For the config's build and for its minimal (4-button) build, in build/case/<n>-buttons/:

    case.scad        OpenSCAD source of both parts (and the closed assembly)
    base.stl top.stl each part in its print orientation (no supports needed), and
    tray.stl         the cells' tray (3 x AAA), which slides out of a wall
    base.png top.png rendered previews (need xvfb-run)
    face.png         the closed case seen from the player's side, caps in place
    inside.png       the base with every part, the perfboard and the caps, in colour
    cap.stl          a button cap (print one per button)
    perfboard.svg    where each part and wire goes on the 2.54 mm board

An STL is rendered again only when its .scad text changed. Needs openscad (apt); without it
the .scad and .svg are still written and the command says what is missing.

--docs also refreshes docs/case (the README's previews and the two perfboard plans).

    python tools/hardware/case.py [--config PATH] [--layout PATH] [--out DIR] [--no-png] [--docs]
"""

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tools/, for paths
import paths  # noqa: F401

import case_board
import case_model
import case_scad
import wiring

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "case"
PARTS = ("base", "top")
DOCS = ROOT / "docs" / "case"
# docs/case/<name> <- build/case/<folder>/<file>
DOC_FILES = (("face-11.png", "11-buttons", "face.png"), ("face-4.png", "4-buttons", "face.png"),
             ("inside-11.png", "11-buttons", "inside.png"),
             ("base-11.png", "11-buttons", "base.png"),
             ("perfboard-11.svg", "11-buttons", "perfboard.svg"),
             ("perfboard-4.svg", "4-buttons", "perfboard.svg"))


def missing_tools(png=True):
    """Why the STLs (or previews) cannot be made here, or None."""
    if not shutil.which("openscad"):
        return "openscad is not installed (apt-get install openscad)"
    if png and not shutil.which("xvfb-run"):
        return "xvfb-run is not installed (apt-get install xvfb), needed for the previews"
    return None


def builds(cfg):
    """[(button names)]: the config's build, then its minimal build if that differs."""
    main = [n for n, _ in wiring.fitted(getattr(cfg, "BUTTONS", {}))]
    minimal = [n for n, _ in wiring.fitted(wiring.minimal_buttons(cfg))]
    return [main] if sorted(main) == sorted(minimal) else [main, minimal]


def case_for(cfg, layout, buttons):
    piezo, _ = wiring.optional(cfg)
    return case_model.model(layout, buttons, piezo is not None,
                            wiring.soft_power(cfg) is not None)


def sources(cfg, layout):
    """{folder name: (case, {file: text})}: the text outputs of every build."""
    piezo, _ = wiring.optional(cfg)
    out = {}
    for buttons in builds(cfg):
        c = case_for(cfg, layout, buttons)
        name = "%d-buttons" % len(c.buttons)
        out[name] = (c, {"case.scad": case_scad.scad(c, name, layout),
                         "perfboard.svg": case_board.board_svg(c, layout, cfg,
                                                               piezo is not None)})
    return out


# (view in colour, camera): the closed case tilted a little toward the player; the base
# with every part, the perfboard and the caps, from above the player's side
VIEWS = {"assembly": (True, "--camera=0,0,0,25,0,0,300"),
         "inside": (True, "--camera=0,0,0,55,0,25,300")}


def openscad(scad, part, target):
    """Render one part of a .scad file to an .stl or .png: into a file of this process's
    beside it, then moved over it, so a reader (another test's worker) never loads a
    half-written part, and a worker rendering the same part never finds its file moved."""
    out = target.with_name("%s.%d.new%s" % (target.stem, os.getpid(), target.suffix))
    cmd = ["openscad", "-D", 'part="%s"' % part, "-o", str(out), str(scad)]
    if target.suffix == ".png":
        colour, camera = VIEWS.get(part, (False, None))
        view = ([] if colour else ["--render"]) + ([camera] if camera else [])
        cmd = ["xvfb-run", "-a"] + cmd[:1] + ["--autocenter", "--viewall", "--imgsize=800,600",
                                                "--colorscheme=Tomorrow"] + view + cmd[1:]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0 or not out.exists():
        raise RuntimeError("openscad failed on %s (%s):\n%s" % (scad, part, r.stderr[-2000:]))
    out.replace(target)


def parts_of(c):
    """The printed parts of a case: the base and the top, and the cells' tray if any."""
    return PARTS + ("cap",) + (("tray",) if c.tray else ())


def write(folder, files, render=True, png=True, parts=PARTS):
    """Write one build's files; render its parts when their source changed."""
    folder.mkdir(parents=True, exist_ok=True)
    scad = folder / "case.scad"
    for rel, text in files.items():  # rewritten only when changed: its age dates the renders
        if not (folder / rel).exists() or (folder / rel).read_text() != text:
            (folder / rel).write_text(text, newline="\n")
    made = []
    jobs = [(part, folder / (part + ".stl")) for part in parts if render]
    jobs += [(part, folder / (part + ".png")) for part in PARTS if render and png]
    if render and png:
        jobs += [("assembly", folder / "face.png"), ("inside", folder / "inside.png")]
    for part, target in jobs:
        if not target.exists() or target.stat().st_mtime < scad.stat().st_mtime:
            openscad(scad, part, target)
        made.append(target)
    return made


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=str(wiring.CONFIG))
    ap.add_argument("--layout", default=str(case_model.LAYOUT))
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--no-png", action="store_true", help="skip the previews")
    ap.add_argument("--docs", action="store_true", help="refresh docs/case from the build")
    args = ap.parse_args(argv)
    try:
        cfg = wiring.load_config(args.config)
        wiring.check(cfg)
        layout = case_model.load_layout(args.layout)
        built = sources(cfg, layout)
    except (wiring.ConfigError, case_model.LayoutError) as e:
        print("case: " + str(e), file=sys.stderr)
        return 1
    why = missing_tools(png=not args.no_png)
    for name, (c, files) in built.items():
        folder = Path(args.out) / name
        made = write(folder, files, render=why is None, png=not args.no_png, parts=parts_of(c))
        for p in [folder / f for f in files] + made:
            print("wrote " + str(p))
        print("  %s: %.0f x %.0f x %.0f mm, %d x M2.5 x %d mm screws, %s" % (
            name, c.x1 - c.x0 + (2 * c.grip_out if c.grips else 0), c.y1 - c.y0, c.z_top,
            len(c.screws), c.screw_len,
            layout.POWER[c.build["power"]["kind"]]["label"]))
    if why:
        print("case: no STL or preview: " + why, file=sys.stderr)
    if args.docs:
        DOCS.mkdir(parents=True, exist_ok=True)
        for name, folder, rel in DOC_FILES:
            src = Path(args.out) / folder / rel
            if src.exists():
                shutil.copyfile(src, DOCS / name)
                print("wrote " + str(DOCS / name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
