"""The firmware's shape: the Turn owns the turn's flow, screens call it
and draw, App stays a session of bounded size, and the small seams stay single.

Most checks read the source (ast), so a rule broken anywhere fails here by name; the
scoring path is checked by playing a box and recording who called whom.
"""

import ast
from pathlib import Path

from board_sim import FULL, Driver, HeadlessBoard

from picoyacht import app as A
from picoyacht import buttons as K
from picoyacht import debounce, screens, ticks
from picoyacht.game import HUMAN
from picoyacht.turn import Turn

PKG = Path(__file__).resolve().parent.parent / "firmware" / "picoyacht"
SCREEN_MODULES = ("menus", "newgame", "play", "card", "handover", "scores", "results", "records",
                  "diag", "screens")
MAX_MODULE_LINES = 600
MAX_CLASS_LINES = 300
MAX_APP_LINES = 300
MAX_APP_ATTRIBUTES = 25
# Classes and modules still over the limits: an entry may leave these lists; none may grow.
OVERSIZE = {}
OVERSIZE_MODULES = {}


def tree(name):
    return ast.parse((PKG / (name + ".py")).read_text())


def classes():
    for path in sorted(PKG.glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                yield path.name, node


def written(node):
    """What a statement writes: its assignment or del targets, setattr's object as `x.?`."""
    if isinstance(node, (ast.Assign, ast.Delete)):
        return node.targets
    if isinstance(node, (ast.AugAssign, ast.AnnAssign)):
        return [node.target]
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("setattr", "delattr") and node.args):
        return [ast.Attribute(value=node.args[0], attr="?")]
    return []


def self_attributes(cls):
    """Every `self.x` a class assigns: its instance attributes."""
    names = set()
    for node in ast.walk(cls):
        for t in written(node):
            for sub in ast.walk(t):
                if (isinstance(sub, ast.Attribute) and isinstance(sub.value, ast.Name)
                        and sub.value.id == "self"):
                    names.add(sub.attr)
    return names


def _is_session(expr, aliases):
    """expr names the App or the Turn: app, turn, self.app, self.turn, app.turn, or a local
    bound to one of those."""
    if isinstance(expr, ast.Name):
        return expr.id in aliases
    if isinstance(expr, ast.Attribute) and expr.attr in ("app", "turn"):
        return isinstance(expr.value, ast.Name) or _is_session(expr.value, aliases)
    return False


def session_writes(module_tree):
    """(line, text) of every assignment, augmented assignment or del of an App's or a
    Turn's attribute, and every setattr on one, in a module."""
    found = []
    for fn in ast.walk(module_tree):
        if not isinstance(fn, (ast.FunctionDef, ast.Lambda)):
            continue
        aliases = {"app", "turn"}
        for node in ast.walk(fn):  # locals bound to the app or the turn
            if (isinstance(node, ast.Assign) and len(node.targets) == 1
                    and isinstance(node.targets[0], ast.Name)
                    and _is_session(node.value, aliases)):
                aliases.add(node.targets[0].id)
        for node in ast.walk(fn):
            for t in written(node):
                if isinstance(t, ast.Attribute) and _is_session(t.value, aliases):
                    found.append((node.lineno, ast.unparse(t)))
    return found


# ---------------------------------------------------------------- screens call and draw
def test_no_screen_assigns_a_field_of_the_app_or_the_turn():
    bad = {m: session_writes(tree(m)) for m in SCREEN_MODULES}
    assert not {m: w for m, w in bad.items() if w}


def test_the_write_check_sees_each_form_of_write():
    """The check above, on code that breaks the rule each way it can be broken."""
    src = '''
def f(self, app):
    app.game = None
    self.app.dirty = True
    self.turn.last_scorer = -1
    t = self.turn
    t.coach_line += "x"
    a = self.app
    del a.note
    setattr(app, "demo", False)
    self.cursor = 0
'''
    writes = [w for _, w in session_writes(ast.parse(src))]
    assert writes == ["app.game", "self.app.dirty", "self.turn.last_scorer", "t.coach_line",
                      "a.note", "app.?"]


def test_notes_go_through_one_call():
    """The note's fields are set in one place, App.note; screens and the turn call that."""
    setters = []
    for path in sorted(PKG.glob("*.py")):
        for fn in ast.walk(ast.parse(path.read_text())):
            if not isinstance(fn, ast.FunctionDef):
                continue
            notes = {n.targets[0].id for n in ast.walk(fn)  # locals bound to x.status
                     if isinstance(n, ast.Assign) and isinstance(n.targets[0], ast.Name)
                     and isinstance(n.value, ast.Attribute) and n.value.attr == "status"}
            for node in ast.walk(fn):
                for t in written(node):
                    if isinstance(t, ast.Attribute) and (
                            isinstance(t.value, ast.Attribute) and t.value.attr == "status"
                            or isinstance(t.value, ast.Name) and t.value.id in notes):
                        setters.append((path.name, fn.name))
    assert sorted(set(setters)) == [("app.py", "note")]


def test_the_turn_names_screens_and_never_opens_them():
    """Turn answers with a screen's name; only App (and the screens) open one."""
    calls = {n.func.attr for n in ast.walk(tree("turn"))
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    assert not calls & {"show", "go", "back", "home", "message", "find"}


# ---------------------------------------------------------------- scoring goes one way
def test_scoring_goes_card_turn_game_then_app_shows():
    """OK on a box in the card: Card -> Turn.score -> Game.score, then App.show of the
    screen the Turn named, and nothing else opens a screen on the way."""
    board = HeadlessBoard(FULL)
    runner = A.Runner(board)
    app = runner.app
    driver = Driver(board, runner)
    app.settings.nplayers = 1
    app.settings.kinds[0] = HUMAN
    app.new_game()  # setup's Start, whole
    assert app.screen.NAME == "play"
    driver.press(K.B_ROLL)
    driver.run_ms(400)  # the roll's animation
    driver.press(K.B_OK)  # the cursor is on Score after a roll on a full build
    assert app.screen.NAME == "card"
    calls = []
    turn, game = app.turn, app.turn.game
    turn_score, game_score, show, go = turn.score, game.score, app.show, app.go

    def rec(name, f):
        def wrapped(*a):
            calls.append((name,) + a)
            r = f(*a)
            calls.append(("<-", name, r))
            return r
        return wrapped

    turn.score = rec("turn.score", turn_score)
    game.score = rec("game.score", game_score)
    app.show = rec("app.show", show)
    app.go = rec("app.go", go)
    box = app.screen.rows[app.screen.row]
    driver.press(K.B_OK)
    while app.screen.NAME == "card":  # a box worth 0 asks for a second OK
        driver.press(K.B_OK)
    opened = [c for c in calls if c[0] in ("app.show", "app.go")]
    assert [c[0] for c in calls[:3]] == ["turn.score", "game.score", "<-"]
    assert calls[0][1] == box
    assert calls[3][:2] == ("<-", "turn.score") and calls[3][2] == "play"
    assert opened == [("app.show", "play")] and calls[4] == ("app.show", "play")


# ---------------------------------------------------------------- sizes
def test_app_is_a_session_of_bounded_size():
    cls = next(c for f, c in classes() if f == "app.py" and c.name == "App")
    assert cls.end_lineno - cls.lineno + 1 <= MAX_APP_LINES
    assert len(self_attributes(cls)) <= MAX_APP_ATTRIBUTES


def test_the_app_attribute_count_sees_every_assignment():
    src = "class C:\n    def f(self):\n        self.a = 1\n        self.b, self.c = 2, 3\n" \
          "        self.d += 1\n        x = self.e\n"
    cls = ast.parse(src).body[0]
    assert self_attributes(cls) == {"a", "b", "c", "d"}


def test_every_class_and_module_is_small():
    over = {}
    for fname, cls in classes():
        n = cls.end_lineno - cls.lineno + 1
        if n > OVERSIZE.get((fname, cls.name), MAX_CLASS_LINES):
            over[(fname, cls.name)] = n
    for path in sorted(PKG.glob("*.py")):
        n = len(path.read_text().splitlines())
        if n > OVERSIZE_MODULES.get(path.name, MAX_MODULE_LINES):
            over[path.name] = n
    assert not over


def test_the_oversize_list_only_names_what_is_still_over():
    """A class or module brought under the limit leaves the list (so it cannot grow back)."""
    sizes = {(f, c.name): c.end_lineno - c.lineno + 1 for f, c in classes()}
    assert all(sizes[k] > MAX_CLASS_LINES for k in OVERSIZE if k in sizes)
    for name in OVERSIZE_MODULES:
        assert len((PKG / name).read_text().splitlines()) > MAX_MODULE_LINES


# ---------------------------------------------------------------- seams
def test_screens_are_registered_as_classes_in_one_table():
    """App.SCREENS names each screen's module; the module's SCREENS holds its class, whose
    NAME is that screen's name. Every screen class is in exactly one such table."""
    registered = {}
    for name, mod in A.SCREENS.items():
        m = __import__("picoyacht." + mod, fromlist=["SCREENS"])
        named = [c for c in m.SCREENS if c.NAME == name]
        assert len(named) == 1, name
        assert issubclass(named[0], screens.Screen)
        registered[named[0]] = name
    for mod in set(A.SCREENS.values()):
        m = __import__("picoyacht." + mod, fromlist=["SCREENS"])
        assert all(c in registered for c in m.SCREENS), mod
    assert not any(isinstance(n, ast.Attribute) and n.attr in ("upper", "capitalize", "title")
                   for n in ast.walk(tree("app")))


def test_clocks_come_from_ticks_not_the_debouncer():
    for name in ("ticks_diff", "ticks_add"):
        assert not hasattr(debounce, name)
        assert callable(getattr(ticks, name))
    wrapping = set()
    for path in sorted(PKG.glob("*.py")):
        t = ast.parse(path.read_text())
        for node in ast.walk(t):
            if isinstance(node, ast.ImportFrom) and node.module == "picoyacht.debounce":
                assert not {a.name for a in node.names} & {"ticks_diff", "ticks_add"}, path.name
            if isinstance(node, ast.Constant) and node.value == 0x3FFFFFFF:
                wrapping.add(path.name)  # the tick wrap written out again
    assert wrapping == {"ticks.py", "roller.py"}  # (the roller's own 30-bit lanes, not time)


def test_const_comes_from_micropython_plainly_everywhere():
    """Each firmware module that uses const imports it at top level as mpy-cross folds it,
    and none writes its own fallback: off the device tools/hostlib/micropython.py answers."""
    for path in sorted(PKG.glob("*.py")):
        t = ast.parse(path.read_text())
        assert not any(isinstance(n, ast.FunctionDef) and n.name == "const" for n in ast.walk(t))
        uses = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                   and n.func.id == "const" for n in ast.walk(t))
        plain = any(isinstance(n, ast.ImportFrom) and n.module == "micropython"
                    and [a.name for a in n.names] == ["const"] for n in t.body)
        assert plain == uses, path.name


def test_turn_is_not_a_screen():
    assert not issubclass(Turn, screens.Screen)
    assert "picoyacht.screens" not in {n.module for n in ast.walk(tree("turn"))
                                       if isinstance(n, ast.ImportFrom)}
