"""One board contract (picoyacht.board.Board) and every board keeps it: the Pico's writes
out each member with the contract's signature, every other board and test fake builds on
Board (or on a board that does), an override keeps the contract's signature, and the
firmware calls the board's members instead of asking whether it has them.

The boards are found by reading the sources (the Pico's and its rigs' need `machine`):
every top-level class named *Board, or built on one, in the firmware and the tools and
tests that hold boards.
"""

import ast
import inspect
import re

import board_sim
import board_term
import board_web

from picoyacht import board as contract_module
from picoyacht.board import Board

from conftest import ROOT

FIRMWARE = ROOT / "firmware"
PICO = FIRMWARE / "picoyacht" / "board_pico.py"
HOLDERS = ("tools/sim", "tools/web", "tools/rigs", "host_tests", "host_tests/mp")
# Classes named like a board that the firmware never runs: they answer to the tools' code.
NOT_BOARDS = {
    ("stress_display.py", "TwinBoard"),  # the press driver's view of two rigs at once
}


def contract():
    """{name: [(parameter, has default)] for a method, None for an attribute}."""
    members = {}
    for name, value in vars(Board).items():
        if name.startswith("__"):
            continue
        if callable(value):
            params = list(inspect.signature(value).parameters.values())[1:]
            members[name] = [(p.name, p.default is not p.empty) for p in params]
        else:
            members[name] = None
    listed = contract_module.__doc__.split("Attributes every board sets itself:")[1]
    for line in listed.splitlines():
        m = re.match(r"^ +(\w+)  ", line)
        if m:
            members[m.group(1)] = None
    return members


def required():
    """The methods Board leaves to each board (they raise NotImplementedError there)."""
    return {name for name, value in vars(Board).items()
            if callable(value) and "NotImplementedError" in inspect.getsource(value)}


def sources():
    yield PICO
    for folder in HOLDERS:
        yield from sorted((ROOT / folder).glob("*.py"))


def top_classes():
    """(file name, class node, base names) of every top-level class in sources()."""
    for path in sources():
        tree = ast.parse(path.read_text())
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
                yield path.name, node, bases


def board_classes():
    """{(file, class): (node, bases)} of each class built on Board, directly or through
    another board class, and PicoBoard."""
    found = {}
    names = {"Board", "PicoBoard"}
    grew = True
    while grew:
        grew = False
        for fname, node, bases in top_classes():
            key = (fname, node.name)
            if key not in found and (set(bases) & names or key == ("board_pico.py", "PicoBoard")):
                found[key] = (node, bases)
                names.add(node.name)
                grew = True
    return found


def params(fn):
    """A def's parameters after self: [(name, has default)], and whether it takes *args."""
    a = fn.args
    pos = a.posonlyargs + a.args
    first_default = len(pos) - len(a.defaults)
    return [(p.arg, i >= first_default) for i, p in enumerate(pos)][1:], a.vararg is not None


def fits(ours, want):
    """A method with parameters `ours` (and *args) can be called as the contract's `want`."""
    got, star = ours
    needed = sum(1 for _, default in got if not default)
    return needed <= len(want) and (star or len(want) <= len(got))


def provided(node):
    """The names a class defines in its body or sets on self in its methods."""
    names = set()
    for n in node.body:
        if isinstance(n, ast.FunctionDef):
            names.add(n.name)
        elif isinstance(n, ast.Assign):
            names.update(t.id for t in n.targets if isinstance(t, ast.Name))
    for n in ast.walk(node):
        if (isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)
                and isinstance(n.value, ast.Name) and n.value.id == "self"):
            names.add(n.attr)
    return names


def test_the_contract_is_read_whole():
    members = contract()
    assert {"display", "store", "boot_buttons", "poll", "idle", "ticks_ms", "sleep",
            "present", "tone", "sampling"} <= set(members)
    assert members["poll"] == [("deb", False), ("now", False)]
    assert required() == {"ticks_ms", "poll", "idle"}


def test_the_pico_board_writes_out_every_member():
    """PicoBoard does not inherit Board (heap on the device): each member is its own."""
    pico = next(node for fname, node, _ in top_classes()
                if (fname, node.name) == ("board_pico.py", "PicoBoard"))
    missing = set(contract()) - provided(pico)
    assert not missing, "PicoBoard lacks %s" % sorted(missing)


def test_every_board_builds_on_the_contract():
    boards = board_classes()
    assert {("board_sim.py", "HeadlessBoard"), ("board_term.py", "TermBoard"),
            ("board_web.py", "WebBoard"), ("stress_wdt.py", "TestBoard"),
            ("pico_sleep.py", "Board"), ("test_diag.py", "HalfBoard")} <= set(boards)
    loose = [key for fname, node, _ in top_classes()
             if node.name.endswith("Board") and (key := (fname, node.name)) not in boards
             and key not in NOT_BOARDS]
    assert not loose, "boards outside the contract: %s" % loose


def test_every_member_a_board_defines_keeps_the_contracts_signature():
    members = contract()
    bad = []
    for (fname, cls), (node, _) in sorted(board_classes().items()):
        for fn in node.body:
            if isinstance(fn, ast.FunctionDef) and members.get(fn.name) is not None:
                if not fits(params(fn), members[fn.name]):
                    bad.append("%s %s.%s%s" % (fname, cls, fn.name, params(fn)))
    assert not bad, bad


def test_the_host_boards_fill_in_what_board_leaves_open():
    need = required()
    for cls in (board_sim.HeadlessBoard, board_term.TermBoard, board_web.WebBoard):
        assert issubclass(cls, Board)
        assert all(getattr(cls, m) is not getattr(Board, m) for m in need), cls
    b = board_sim.HeadlessBoard()
    assert all(hasattr(b, name) for name in contract())


def probes(tree):
    """(line, text) of each getattr or hasattr on something named like a board."""
    found = []
    for n in ast.walk(tree):
        if (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                and n.func.id in ("getattr", "hasattr") and n.args
                and re.search(r"board|\bb\b", ast.unparse(n.args[0]), re.I)):
            found.append((n.lineno, ast.unparse(n)))
    return found


def test_the_firmware_never_asks_a_board_what_it_has():
    bad = {}
    for path in sorted(FIRMWARE.rglob("*.py")):
        found = probes(ast.parse(path.read_text()))
        if found:
            bad[path.name] = found
    assert not bad, bad


def test_the_probe_check_sees_each_form():
    src = """
def f(board, b, self):
    getattr(board, "tone", None)
    hasattr(self.board, "read")
    getattr(b, "attach", None)
    getattr(cfg, "SAMPLE_MS", 2)
"""
    assert [line for line, _ in probes(ast.parse(src))] == [3, 4, 5]


def test_every_display_has_the_power_calls_the_app_makes():
    """power.Panel, for App, calls the display's wake, contrast and sleep by name, without asking
    whether the driver has them: the Pico's driver and the host boards' fallback both must.
    Control: a driver without `wake` fails this."""
    from picoyacht import ssd1306

    calls = set(re.findall(r'panel\.command\("(\w+)"', (FIRMWARE / "picoyacht" / "app.py")
                           .read_text()))
    assert calls == {"wake", "contrast", "sleep"}
    for driver in (ssd1306.SSD1306_I2C, board_sim.HostDisplay):
        assert all(callable(getattr(driver, c, None)) for c in calls), driver

    class NoWake(board_sim.HostDisplay):
        wake = None

    assert not all(callable(getattr(NoWake, c, None)) for c in calls)
