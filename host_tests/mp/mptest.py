"""Runs a twin test module's tests marked micropython on the MicroPython unix port.

mptest.main("test_x") imports the module (pytest and hypothesis are the stand-ins
in shim/), calls each marked test once per parameter case, and prints per test
"PASS <name> <cases>", "SKIP <name> <reason>" or "FAIL <name>" followed by the traceback
and "END". conftest.py turns each into the test's [micropython] item.
"""

import sys

import pytest


def cases(params):
    """Every combination of the stacked parametrize lists, as keyword dicts."""
    out = [{}]
    for names, values in params:
        grown = []
        for base in out:
            for v in values:
                kw = dict(base)
                if len(names) == 1:
                    kw[names[0]] = v
                else:
                    for i in range(len(names)):
                        kw[names[i]] = v[i]
                grown.append(kw)
        out = grown
    return out


def run(name, fn, params):
    n = 0
    try:
        for kw in cases(params):
            fn(**kw)
            n += 1
    except pytest._Skipped as e:
        print("SKIP", name, e)
        return
    except Exception as e:  # reported; the next test runs
        print("FAIL", name)
        sys.print_exception(e, sys.stdout)
        print("END")
        return
    print("PASS", name, n)


def main(module):
    mod = __import__(module)
    for name in sorted(dir(mod)):
        fn = getattr(mod, name)
        entry = pytest.MARKS.get(fn) if name.startswith("test_") else None
        if entry is not None and "micropython" in entry:
            run(name, fn, entry["params"])
    print("DONE")

