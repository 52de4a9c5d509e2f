"""board_pico's Timer sampler and its ring, on a fake clock: presses made while the main loop
is inside a save, or while a flash write holds the interrupts off, reach the debouncer once.

The same thing on the emulated Pico, with the real firmware and flash stalls of a real
chip's erase time, is `python tools/stress/pico_stress.py presses` (in `make stress`)."""

import importlib
import sys
import types

import pytest

import picoyacht
from picoyacht.debounce import PRESS, RELEASE, Debouncer


class Clock:
    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    @staticmethod
    def ticks_diff(a, b):
        return a - b

    @staticmethod
    def ticks_add(a, b):
        return a + b


class FakePin:
    def __init__(self):
        self.down = False

    def value(self):
        return 0 if self.down else 1  # active low


class FakeMem32:
    """machine.mem32 for the RP2040's GPIO_IN word: pull-ups high, a held button low."""

    def __init__(self, board):
        self.board = board

    def __getitem__(self, addr):
        b = self.board
        word = 0x3FFFFFFF
        for pin, gpio in zip(b.pins, b.gpios, strict=True):
            if pin.down:
                word &= ~(1 << gpio)
        return word


@pytest.fixture(params=["read", "GPIO_IN"])
def board(monkeypatch, request):
    """Both samplers: read()'s mask, and the RP2040's GPIO_IN word (bits at the pins')."""
    machine = types.ModuleType("machine")
    machine.Pin = FakePin
    machine.disable_irq = lambda: 0
    machine.enable_irq = lambda state: None
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.delitem(sys.modules, "picoyacht.board_pico", raising=False)
    if hasattr(picoyacht, "board_pico"):
        monkeypatch.delattr(picoyacht, "board_pico")
    board_pico = importlib.import_module("picoyacht.board_pico")
    clock = Clock()
    monkeypatch.setattr(board_pico, "time", clock)
    b = board_pico.PicoBoard.__new__(board_pico.PicoBoard)
    b.pins = [FakePin(), FakePin()]
    b.bits = [1, 2]
    b.npins = 2
    b.sample_ms = 2
    b.wdt = None
    b._fed = 0
    b.grace_ms = 8000
    b.interrupted = False
    b.irq_errors = 0
    b.timer = object()  # Timer sampling: poll() drains the ring
    b._raw = board_pico.array("H", bytes(2 * board_pico.RING))
    b._when = board_pico.array("i", bytes(4 * board_pico.RING))
    b._head = b._tail = 0
    b._fell = b._tap = b._tap_t = b._prev_t = b._catchup_end = 0
    b.lost = 0
    b.gpios = [3, 12]
    b._words = request.param == "GPIO_IN"
    b._pinmask = (1 << 3) | (1 << 12)
    b._marks = [1 << 3, 1 << 12] if b._words else b.bits
    machine.mem32 = FakeMem32(b)
    b._word = -1
    b._mask = 0
    b.clock = clock
    b.deb = Debouncer(2)
    return b


def sample_until(b, t):
    """The Timer's samples every 2 ms up to t, the loop not draining them."""
    while b.clock.now + 2 <= t:
        b.clock.now += 2
        b._sample(None)


def events(b):
    b.poll(b.deb, b.clock.now)
    out = []
    ev = b.deb.get()
    while ev >= 0:
        out.append((ev >> 4, ev & 15))
        ev = b.deb.get()
    return out


def test_a_loop_blocked_for_a_second_still_gets_every_tap(board):
    # 500 samples while the loop saves: the 64-slot ring keeps each level's first and last
    taps = [(100, 160), (300, 325), (600, 760), (900, 940)]
    for down, up in taps:
        sample_until(board, down)
        board.pins[0].down = True
        sample_until(board, up)
        board.pins[0].down = False
    sample_until(board, 1000)
    assert board.lost == 0
    assert events(board) == [(PRESS, 0), (RELEASE, 0)] * len(taps)


def test_a_tap_inside_a_flash_erase_is_caught_by_its_latched_edge(board):
    sample_until(board, 100)
    # the interrupts are off from 100 to 145 ms: button 1 goes down and up in there, the
    # chip latches the fall; when they come back on, the Timer catches up in a burst first
    # and the GPIO IRQ runs after it (the emulated Pico's order)
    board.clock.now = 145
    for _ in range(22):
        board._sample(None)
    board._edge(board.pins[1])
    sample_until(board, 200)
    assert events(board) == [(PRESS, 1), (RELEASE, 1)]
    # and a burst after the edge IRQ (the order of a real RP2040's priorities)
    board.clock.now = 400
    board._edge(board.pins[1])
    for _ in range(22):
        board._sample(None)
    sample_until(board, 450)
    assert events(board) == [(PRESS, 1), (RELEASE, 1)]


def test_a_glitch_between_two_samples_in_normal_running_stays_a_glitch(board):
    sample_until(board, 100)
    board._edge(board.pins[0])  # fell and rose again within one sample period
    sample_until(board, 200)
    assert events(board) == []


def test_a_press_held_through_the_erase_is_one_press(board):
    sample_until(board, 100)
    board.pins[0].down = True
    board._edge(board.pins[0])
    board.clock.now = 145
    for _ in range(22):
        board._sample(None)
    sample_until(board, 200)
    board.pins[0].down = False
    sample_until(board, 260)
    assert events(board) == [(PRESS, 0), (RELEASE, 0)]
