# PicoYacht: every host-side job bootstraps its own .venv from requirements-dev.txt.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
MP      := $(BIN)/micropython

.PHONY: test lint sim bench tables shots flash flash-src stress clean

$(STAMP): requirements-dev.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

venv: $(STAMP)

test: $(STAMP)
	$(BIN)/ruff check firmware host_tests tools
	$(BIN)/pytest -q host_tests

lint: $(STAMP)
	$(BIN)/ruff check firmware host_tests tools

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
