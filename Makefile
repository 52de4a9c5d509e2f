# PicoYacht: every host-side job bootstraps its own .venv from requirements-dev.txt.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
MP      := $(BIN)/micropython

.PHONY: test lint sim bench bench-core tables shots flash flash-src stress clean

$(STAMP): requirements-dev.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check firmware host_tests tools
	$(BIN)/pytest -q host_tests

# Budgets, printed as tables and written as JSON under build/ (never asserted in tests).
bench: bench-core

bench-core: $(STAMP)
	$(BIN)/python tools/bench_core.py

# Put the firmware on a Pico over USB (.mpy matched to the board), or plain .py for Thonny.
flash: $(STAMP)
	$(BIN)/python tools/flash.py

flash-src: $(STAMP)
	$(BIN)/python tools/flash.py --src

lint: $(STAMP)
	$(BIN)/ruff check firmware host_tests tools

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
