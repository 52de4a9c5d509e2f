"""The package's layers hold: every import of a picoyacht module, at module level or inside
a function, goes to the importer's own layer or a lower one, never up and never across
between the two side-by-side layers (cpu and persistence).

The map is the one in picoyacht/__init__.py's docstring (free on the device), read here;
the README's line per layer must name the same modules.
"""

import ast
import re

from conftest import ROOT

PKG = ROOT / "firmware" / "picoyacht"
GENERATED = {"version"}  # written by the build, not in the repository
HARDWARE = {"machine"}  # only the board layer may import these
_ENTRY = re.compile(r"^  (\d) (\w+): (.+)$")
_MORE = re.compile(r"^ {5,}(\S.*)$")


def layer_map(text):
    """{module: (rank, layer)} from the docstring's lines `  N layer: mod mod ...` (a line
    indented further carries on the one above it)."""
    found, last = {}, None
    for line in text.splitlines():
        m = _ENTRY.match(line)
        if m:
            last = (int(m.group(1)), m.group(2))
            names = m.group(3).split()
        elif last is not None and _MORE.match(line):
            names = line.split()
        else:
            last = None if found else last
            continue
        for name in names:
            assert name not in found, "%s is in two layers" % name
            found[name] = last
    return found


def package_map():
    return layer_map(ast.get_docstring(ast.parse((PKG / "__init__.py").read_text())))


def imports(tree, modules):
    """(line, source text, module) of every picoyacht module a tree imports, anywhere in it.
    `import picoyacht`, and a name of the package that is not a module, are __init__."""
    found = []

    def add(node, name):
        found.append((node.lineno, ast.unparse(node), name))

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "picoyacht":
                    add(node, parts[1] if len(parts) > 1 else "__init__")
                elif alias.name in HARDWARE:
                    add(node, alias.name)
        elif isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".") if node.module else []
            if node.level == 0 and parts and parts[0] in HARDWARE:
                add(node, parts[0])
                continue
            if node.level == 0:
                if not parts or parts[0] != "picoyacht":
                    continue
                parts = parts[1:]
            if parts:
                add(node, parts[0])
            else:
                for alias in node.names:
                    add(node, alias.name if alias.name in modules else "__init__")
    return found


def screen_modules(app_tree):
    """The modules App opens screens from by name (__import__, which the walk cannot see)."""
    for node in app_tree.body:
        if (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)
                and node.targets[0].id == "SCREENS"):
            return {v.value for v in node.value.values}
    return set()


def against(name, tree, layers):
    """Each import of the module `name` that goes up or across: (line, text, why)."""
    rank, layer = layers[name]
    bad = []
    for line, text, target in imports(tree, layers):
        if target in HARDWARE:
            if layer != "board":
                bad.append((line, text, "%s is for the board layer only" % target))
            continue
        if target not in layers:
            bad.append((line, text, "%s is in no layer of the map" % target))
            continue
        t_rank, t_layer = layers[target]
        if t_layer != layer and t_rank >= rank:
            bad.append((line, text, "%s (%s) imports %s (%s)" % (name, layer, target, t_layer)))
    return bad


def test_the_map_names_every_module_of_the_package_once():
    layers = package_map()
    on_disk = {p.stem for p in PKG.glob("*.py")}
    assert on_disk - set(layers) == set(), "modules in no layer"
    assert set(layers) - on_disk <= GENERATED, "layers naming modules that do not exist"
    assert {layer for _, layer in layers.values()} == {
        "core", "cpu", "persistence", "screens", "flow", "board"}


def test_every_import_goes_down_the_layers():
    layers = package_map()
    bad = {}
    for path in sorted(PKG.glob("*.py")):
        found = against(path.stem, ast.parse(path.read_text()), layers)
        if found:
            bad[path.name] = found
    assert not bad, "\n".join("%s:%d %s: %s" % (f, n, text, why)
                              for f, rows in bad.items() for n, text, why in rows)


def test_app_opens_screens_only_from_the_screens_layer():
    layers = package_map()
    mods = screen_modules(ast.parse((PKG / "app.py").read_text()))
    assert mods and {layers[m][1] for m in mods} == {"screens"}, mods


def test_the_check_sees_each_form_of_import():
    """Every way a module can name another, in a core module: each one goes up."""
    layers = package_map()
    src = '''
import picoyacht.play
from picoyacht import strategy, forget
from picoyacht.screens import W
from . import app
from .turn import Turn
import machine


def later():
    from picoyacht import saves
    import picoyacht
'''
    found = [why for _, _, why in against("rules", ast.parse(src), layers)]
    assert found == [
        "rules (core) imports play (screens)",
        "rules (core) imports strategy (cpu)",
        "rules (core) imports screens (screens)",
        "rules (core) imports app (flow)",
        "rules (core) imports turn (flow)",
        "machine is for the board layer only",
        "rules (core) imports saves (persistence)",
    ]
    across = [why for _, _, why in against("saves", ast.parse("import picoyacht.coach"), layers)]
    assert across == ["saves (persistence) imports coach (cpu)"]
    assert against("app", ast.parse("from picoyacht import screens, rules, forget"), layers) == []


def test_the_readme_gives_each_layer_its_modules():
    text = (ROOT / "README.md").read_text()
    layers = package_map()
    for layer in {layer for _, layer in layers.values()}:
        m = re.search(r"^- \*\*%s:\*\* (.+(?:\n  .+)*)$" % layer, text, re.M)
        assert m, layer
        named = set(re.findall(r"`(\w+)`", m.group(1)))
        assert named == {n for n, (_, lay) in layers.items() if lay == layer}, layer


def test_the_design_notes_give_each_layer_its_modules():
    """docs/DESIGN.md's layer table names the same modules, rank and layer as the map.
    Control: moving `dice` back to core in the table fails this."""
    text = (ROOT / "docs" / "DESIGN.md").read_text()
    layers = package_map()
    rows = re.findall(r"^\| (\d) \| (\w+) \| (.+?) \| .+ \|$", text, re.M)
    assert {lay for _, lay, _ in rows} == {lay for _, lay in layers.values()}
    for rank, layer, names in rows:
        named = set(re.findall(r"`(\w+)`", names)) - {"Board"}
        want = {n for n, (r, lay) in layers.items() if lay == layer and n != "__init__"}
        assert named == want, layer
        assert {r for n, (r, lay) in layers.items() if lay == layer} == {int(rank)}, layer


# Constants kept in two modules on purpose, the home first: mpy-cross folds a const only
# in its own module, and the copy is read in a loop (or its home is dropped after boot).
FOLDED_COPIES = {
    "ONE": ["engine", "estimate", "one_throw"],
    "NEG": ["engine", "one_throw"],
    "MEAN_CHUNK": ["engine", "one_throw"],
    "C_FILL": ["engine", "estimate"],
    "SLOTS": ["strategy_table", "table_packed"],
    "WDT_MAX_MS": ["config_check", "board_pico"],
    "CELL": ["font", "screens"],
    "COLS": ["menus", "box_help"],  # the help's rows wrap as a note's do
    "ROWS": ["menus", "box_help"],
    "SPACE": ["font", "box_help"],
}


def shared_constants(sources):
    """{name: sorted modules} of every number, bytes or string that two or more modules of
    `sources` ({module: text}) set at their top level, under one name (a leading _ aside)
    and to one value."""
    seen = {}
    for mod, text in sources.items():
        for node in ast.parse(text).body:
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)):
                continue
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "const":
                value = value.args[0]
            try:
                value = ast.literal_eval(value)
            except ValueError:
                continue
            if isinstance(value, (int, bytes, str)):
                seen.setdefault((node.targets[0].id.lstrip("_"), value), []).append(mod)
    return {name: sorted(mods) for (name, _), mods in seen.items() if len(mods) > 1}


def test_every_shared_constant_has_one_home_or_a_held_copy():
    """A constant two modules need lives in one and the other imports it, except the
    FOLDED_COPIES, which must stay equal. Control: a second YAHTZEE_BONUS in engine fails,
    and so does a copy of ONE that drifts."""
    sources = {p.stem: p.read_text() for p in sorted(PKG.glob("*.py"))}
    want = {name: sorted(mods) for name, mods in FOLDED_COPIES.items()}
    assert shared_constants(sources) == want
    extra = dict(sources, engine=sources["engine"] + "\n_YAHTZEE_BONUS = const(100)\n")
    assert "YAHTZEE_BONUS" in shared_constants(extra)
    drifted = dict(sources, estimate=sources["estimate"].replace(
        "_ONE = const(65536)", "_ONE = const(65535)"))
    assert "estimate" not in shared_constants(drifted)["ONE"]


# One public name in several modules, each its own on purpose: every screen module lists its
# own screens, and app.SCREENS names them all.
OWN_IN_EACH = {"SCREENS"}


def names_in_two_modules(sources):
    """{name: sorted modules} of every public name that two or more modules of `sources`
    set at their top level, whatever its value."""
    seen = {}
    for mod, text in sources.items():
        for node in ast.parse(text).body:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name) and not target.id.startswith("_"):
                        seen.setdefault(target.id, set()).add(mod)
    return {name: sorted(mods) for name, mods in seen.items() if len(mods) > 1}


def test_no_name_means_two_things():
    """A name that two modules set is one constant and its held copy, never two things: a
    reader who meets HOLD or COUNT must not have to ask whose. Control: a HOLD in cues
    beside strategy's search action fails, and so does a LABELS in diag beside setup's."""
    sources = {p.stem: p.read_text() for p in sorted(PKG.glob("*.py"))}
    found = names_in_two_modules(sources)
    assert set(found) <= set(FOLDED_COPIES) | OWN_IN_EACH, found
    for mod, extra in (("cues", "HOLD = const(0)"), ("diag", 'LABELS = "123456RUDOM"')):
        clash = dict(sources, **{mod: sources[mod] + "\n" + extra + "\n"})
        assert extra.split()[0] in names_in_two_modules(clash)
