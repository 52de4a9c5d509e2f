"""The part of pytest that twin test modules use, for the MicroPython unix port.

Decorators record what they mean in MARKS (MicroPython functions take no attributes);
host_tests/mp/mptest.py reads it to run the marked tests. Only on MICROPYPATH: CPython
always gets the real pytest.
"""

MARKS = {}  # function -> {"micropython": kwargs, "params": [(names, values), ...]}


class _Skipped(Exception):
    pass


def skip(reason=""):
    raise _Skipped(reason)


def _entry(fn):
    if fn not in MARKS:
        MARKS[fn] = {"params": []}
    return MARKS[fn]


class _Mark:
    def __init__(self, name):
        self.name = name

    def __call__(self, *args, **kwargs):
        if len(args) == 1 and callable(args[0]) and not kwargs:
            return self._apply(args[0], {})  # bare @pytest.mark.name

        def deco(fn):
            return self._apply(fn, kwargs, args)

        return deco

    def _apply(self, fn, kwargs, args=()):
        if self.name == "parametrize":
            names = [n.strip() for n in args[0].split(",")]
            _entry(fn)["params"].insert(0, (names, list(args[1])))
        elif self.name == "micropython":
            _entry(fn)["micropython"] = kwargs
        return fn


class _Marks:
    def __getattr__(self, name):
        return _Mark(name)


mark = _Marks()


def fixture(*args, **kwargs):
    if len(args) == 1 and callable(args[0]):
        return args[0]
    return lambda fn: fn


class raises:
    """with raises(E): ... fails unless the block raises E (or a subclass)."""

    def __init__(self, exc, match=None):
        self.exc = exc

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if kind is None:
            raise AssertionError("DID NOT RAISE %r" % (self.exc,))
        if not issubclass(kind, self.exc):
            return False
        self.value = value
        return True
