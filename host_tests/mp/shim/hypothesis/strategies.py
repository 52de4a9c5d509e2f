"""Stand-in: every strategy is a placeholder (see __init__.py)."""


def _placeholder(*args, **kwargs):
    return _placeholder


def __getattr__(name):
    return _placeholder
