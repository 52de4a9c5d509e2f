"""The heap budgets' reference game on the unix port: an all-Expert game of 4 seats through
the App on the headless board, the coach judging every move (what tools/emu/heap_budget.py plays on
the emulated Pico). main(rid) prints OK when it ends with no CPU engine error or fault."""

from board_sim import FULL, HeadlessBoard

from picoyacht import app as A


def main(rid, seats=4, coach=2):
    board = HeadlessBoard(FULL)
    runner = A.Runner(board)
    app = runner.app
    s = app.settings
    s.rid = rid
    s.nplayers = seats
    s.coach = coach
    for i in range(seats):
        s.kinds[i] = 3
    app.new_game()  # the game's start, whole (setup's Start spreads it over passes)
    for _ in range(400000):
        if app.turn.game.over:
            break
        runner.step()
    print("OK" if app.turn.game.over and not board.faults else "FAILED faults=%d" % board.faults)
