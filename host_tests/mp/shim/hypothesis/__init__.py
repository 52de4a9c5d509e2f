"""Stand-in so twin test modules import on MicroPython: property tests need the real
hypothesis, so they run on CPython only (mptest.py runs only tests marked micropython)."""


def given(*args, **kwargs):
    return lambda fn: fn


def settings(*args, **kwargs):
    return lambda fn: fn


class HealthCheck:
    too_slow = filter_too_much = data_too_large = function_scoped_fixture = None


def assume(cond):
    return True
