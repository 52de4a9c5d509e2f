"""A CPU decision's whole thinking time on the Pico: what a player watching a CPU seat waits,
from the pass its search starts to the pass that finishes it, over every loop pass between
(the search runs a budget a pass: strategy.Thinking), and until the step that shows the move.

    import think_probe; think_probe.main(RULES, JOKER, SHARP, TURNS)

PicoYacht's own board and loop play a game of every seat CPU Expert (coach off, as setup
starts) for TURNS turns, on the emulated clock when run there (tools/emu/bench_pico.py --only
think). One line per decision, "THINK <seat> <turn> <rolls used> <thinking us> <passes>
<until the move us>", then "THINK_END {...}": figures() as JSON, with the turns and whether
Expert had a table ("table": false: it played by estimate).
"""

import time

_timed = []  # every decision's Thinking, in order; reported once its move is shown
_done = []  # (seat, turn, rolls used, thinking us, passes, until the move us)


def timed(base):
    """strategy.Thinking that notes when its search starts, how many passes it thinks in
    and when it is done."""

    class Timed(base):
        def __init__(self, fn, *args):
            base.__init__(self, fn, *args)
            game = [a for a in args if hasattr(a, "rolls_used")][0]
            self.where = (game.current, game.turn, game.rolls_used)
            self.t0 = None
            self.passes = 0
            self.took = None
            _timed.append(self)

        def step(self, budget):
            if self.done:
                return True
            if self.t0 is None:
                self.t0 = time.ticks_us()
            self.passes += 1
            done = base.step(self, budget)
            if done:
                self.took = time.ticks_diff(time.ticks_us(), self.t0)
            return done

    return Timed


def report(now):
    """Every finished decision so far, with the time until `now` (its move's step). A search
    dropped unfinished (its position moved on) was no decision."""
    for t in _timed:
        if t.took is not None:
            _done.append(t.where + (t.took, t.passes, time.ticks_diff(now, t.t0)))
            print("THINK %d %d %d %d %d %d" % _done[-1])
    _timed.clear()


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[(n - 1) // 2] + xs[n // 2]) // 2


def figures(done):
    """The decisions after a roll (before it there is nothing to search), the game's first
    of them apart (it builds the engine): how many, the median and longest thinking, the
    most passes, the median and longest until the move, and the first's; {} if there are
    fewer than two."""
    searched = [d for d in done if d[2] > 0]
    if len(searched) < 2:
        return {}
    first, rest = searched[0], searched[1:]
    took = [d[3] for d in rest]
    shown = [d[5] for d in rest]
    return {"decisions": len(rest), "median_us": median(took), "max_us": max(took),
            "passes_max": max(d[4] for d in rest), "shown_median_us": median(shown),
            "shown_max_us": max(shown), "first_us": first[3], "first_passes": first[4],
            "first_shown_us": first[5]}


def main(rules, joker, sharp, turns):
    import json
    import sys

    from picoyacht import app as A
    from picoyacht.board_pico import make_board

    board = make_board()
    runner = A.Runner(board)
    app = runner.app
    s = app.settings
    s.rid = rules
    s.nplayers = 4
    s.coach = 0
    s.options.joker = joker
    s.options.sharp = bool(sharp)
    for i in range(4):
        s.kinds[i] = 3
    app.new_game()  # the game's start, whole (setup's Start spreads it over passes)
    coach = app.turn.coach
    shown = coach.step

    def step(game):
        report(time.ticks_us())
        return shown(game)

    coach.step = step
    patched = False
    try:
        while app.turn.game.turn < turns:
            runner.step()
            st = sys.modules.get("picoyacht.strategy")
            if not patched and st is not None:  # before its first search: imports take passes
                st.Thinking = timed(st.Thinking)
                patched = True
        got = figures(_done)
        if got:
            got.update(turns=turns, table=coach.exact(app.turn.game))
        print("THINK_END", json.dumps(got))
    finally:
        board.restore()
