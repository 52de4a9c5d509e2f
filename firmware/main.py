"""PicoYacht entry point: build the board for where we run, hand it to the app."""

import sys

if sys.platform == "rp2":
    from picoyacht.board_pico import make_board
else:  # desktop simulator: tools/board_term.py on the path (make sim)
    from board_term import make_board

board = make_board()  # first: the panel is cleared and lit while the app's modules load
try:
    from picoyacht.app import Runner

    Runner(board).run()
finally:
    board.restore()
