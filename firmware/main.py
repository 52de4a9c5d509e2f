"""PicoYacht entry point: build the board, hand it to the app.

The Pico runs this file at power-on with its own board. Every other target brings its board
and calls run() (the simulator: `main.run(board_term.make_board)`), so the firmware imports
nothing of the tools and each target plays through these same lines."""

import sys


def run(make_board):
    board = make_board()  # first: the panel is cleared and lit while the app's modules load
    try:
        from picoyacht.app import Runner

        Runner(board).run()
    finally:
        board.restore()


if sys.platform == "rp2":
    from picoyacht.board_pico import make_board

    run(make_board)
