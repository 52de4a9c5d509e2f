# PicoYacht: every host-side job bootstraps its own .venv: make sim and make web from
# requirements-play.txt alone, the rest from requirements-dev.txt (which includes it).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
PLAY    := $(VENV)/.installed-play
# Playing is served by either install: the whole one, once made, includes play's.
PLAYS   := $(if $(wildcard $(STAMP)),$(STAMP),$(PLAY))
MP      := $(BIN)/micropython

.PHONY: test lint sim bench bench-strategy tables shots flash flash-src stress clean hardware uf2 \
        bench-pico web web-deps bench-web case help release venv calibrate-avg
.DEFAULT_GOAL := help

# Every target in a line: its "## " text, else the first words of the comment above it.
help:  ## this list (what plain `make` prints)
	@awk '/^#/ { if (c == "") c = substr($$0, 3); next } \
	  /^[a-z][a-z0-9-]*:([^=]|$$)/ { t = $$0; sub(/:.*/, "", t); d = $$0; \
	    if (sub(/.*## /, "", d)) c = d; else { sub(/ \(.*/, "", c); sub(/[,;:.]$$/, "", c) } \
	    printf "  make %-15s %s\n", t, c } { c = "" }' $(firstword $(MAKEFILE_LIST))

$(STAMP): requirements-dev.txt requirements-play.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-dev.txt
	touch $(STAMP)

$(PLAY): requirements-play.txt
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -r requirements-play.txt
	touch $(PLAY)

venv: $(STAMP)  ## the project's .venv (every other target makes it when needed)

test: $(STAMP) web-deps  ## ruff, then the whole test suite on CPython and the MicroPython unix port
	$(BIN)/ruff check firmware host_tests tools
	$(BIN)/pytest -q -n auto --dist loadgroup --durations=12 host_tests

# Every benchmark: the CPU levels' strength, the budgets on the emulated Pico (the judge,
# which rewrites docs/PERFORMANCE.md), then the web page's. Timing lives here, never in tests.
bench: bench-strategy bench-pico bench-web  ## every benchmark: CPU strength, the emulated Pico, the page

# The budgets judged on the emulated Pico (real rp2 firmware v1.28.0; the frozen .uf2 of
# `make uf2` and the make-flash .mpy layout, played through the buttons): heap by bisection
# per rule set on both layouts, garbage, pass times, I2C bytes, CPU passes, a CPU decision's
# whole thinking per game and option (frozen), reset, Ctrl-C and
# the power model -> build/bench_pico.json and docs/PERFORMANCE.md. Needs node. Parts:
# PICOARGS="--only heap --layout uf2 --rules maxi" (--help lists them); other rows are kept.
bench-pico: $(STAMP)  ## the budgets on the emulated Pico -> docs/PERFORMANCE.md
	$(BIN)/python tools/emu/bench_pico.py $(PICOARGS)

# Put the firmware on a Pico over USB (.mpy matched to the board), or plain .py for Thonny.
flash: $(STAMP)  ## put the firmware on a Pico over USB (.mpy)
	$(BIN)/python tools/deploy/flash.py

flash-src: $(STAMP)  ## the same as plain .py (for Thonny)
	$(BIN)/python tools/deploy/flash.py --src

# One file to flash: MicroPython v1.28.0 (../shared/micropython) with PicoYacht frozen in
# and Expert's tables in a read-only ROMFS -> build/picoyacht-pico.uf2 (Pico, Pico W) and
# build/picoyacht-pico2.uf2 (Pico 2). Installs the Arm toolchain with apt-get when root
# (else says how); builds Expert's tables if they are missing or stale (cached like `make
# tables`): the Pico 2 carries every one, the Pico those that fit. A few minutes the first time.
uf2: $(STAMP)  ## one file to flash: build/picoyacht-pico.uf2 and picoyacht-pico2.uf2
	$(BIN)/python tools/tables/build_tables.py
	$(BIN)/python tools/uf2/build.py

# What a version tag publishes (.github/workflows/release.yml): both .uf2 files, the web
# site and SHA256SUMS in dist/.
release: uf2  ## dist/: both .uf2 files, the web site and their SHA256SUMS
	$(BIN)/python tools/deploy/release.py

lint: $(STAMP)  ## ruff over the firmware, the tests and the tools
	$(BIN)/ruff check firmware host_tests tools

clean:  ## remove .venv, build/ and dist/
	rm -rf $(VENV) build dist .pytest_cache .hypothesis

# Desktop simulator of the unchanged firmware (MicroPython unix port, Pico-sized heap).
# SIMARGS="--buttons 4" for the minimal build, "--cpython" to run under CPython.
sim: $(PLAYS)  ## the desktop simulator (SIMARGS="--buttons 4" for the minimal build)
	$(BIN)/python tools/sim/sim.py $(SIMARGS)

# PNG screenshots of every screen from the real framebuffer (build/shots, docs/shots).
shots: $(STAMP)  ## PNG screenshots of every screen (build/shots, docs/shots)
	$(BIN)/python tools/sim/shots.py

# Expert's tables, every game and option with an optimum: exact DP (NumPy and a small C
# kernel built with gcc), cached in tables/ (git-ignored); rebuilt only when the builder or
# the rules change. About a minute for all of them.
tables: $(PLAYS)  ## Expert's tables, cached in tables/
	$(BIN)/python tools/tables/build_tables.py

# The hint's "avg" without a table: Normal's shortfall from the final total, measured over
# seeded games and written to firmware/picoyacht/final_gap.py (rerun when Normal changes).
calibrate-avg: $(STAMP)  ## re-measure Normal's estimate: each box's chase chance, the total's gap
	$(BIN)/python tools/tables/chase_chances.py
	$(BIN)/python tools/tables/calibrate_avg.py

# CPU levels and coach: every table's build time and optimum, the device policy's exact
# loss on each table and serving other joker rules, 10,000 seeded games per level and rule
# set (Sharp Dice too), Expert agreement, the coach's figures against the exact regret, the
# hint's avg with Sharp Dice, MicroPython decision time, ops and RAM ->
# build/bench_strategy.json. BENCHARGS="--only coach,hint" runs some sections.
bench-strategy: $(STAMP) tables  ## CPU levels and coach over seeded games (build/bench_strategy.json)
	$(BIN)/python tools/tables/bench_strategy.py $(BENCHARGS)

# hardware/PINS.md, wiring.svg and the Wokwi project, from firmware/config.py (also checks
# an edited pin map: GPIOs used twice, Pico W radio pins, SDA/SCL the I2C block can't use).
hardware: $(STAMP)  ## hardware/PINS.md, wiring.svg and the Wokwi project from config.py
	$(BIN)/python tools/hardware/wiring.py

# A printable case and perfboard plan from config.py and hardware/layout.py: OpenSCAD
# source, an STL and a preview PNG per part, perfboard.svg, for the config's build and its
# 4-button build -> build/case/<n>-buttons/. Needs openscad and xvfb (apt).
case: $(STAMP)  ## a printable case and perfboard plan, from config.py and hardware/layout.py
	$(BIN)/python tools/hardware/case.py

# The robustness proofs at full counts, on all cores (about 10 minutes): a power cut at
# every unit of every save and an I/O error at every filesystem call (then a boot), 10,000
# mutations per saved file kind, 10^6 mashed button events, the heap over 100 games,
# display faults, the watchdog, 1,000 CPU-only games in one process. One table;
# build/stress.json.
# STRESSARGS="--ci" for the test suite's counts, "--only mash,soak" for some of it.
stress: $(STAMP)  ## power cuts, I/O errors, mutations and mashed buttons at full counts
	$(BIN)/python tools/stress/stress.py $(STRESSARGS)

# Play it in a browser: the unchanged firmware on MicroPython's WebAssembly port. Builds the
# static site build/web (page, the pinned port from npm, the package as .mpy) and serves
# it on http://127.0.0.1:8000 (WEBARGS="--port 8080"); Expert's table for a game is built
# the first time the page asks for it (seconds), then cached in tables/. A static host
# serves build/web as it is, with the tables `make tables` built.
web: $(PLAYS) web-deps  ## build the browser version into build/web and serve it on 127.0.0.1:8000
	$(BIN)/python tools/web/build_site.py --tables-on-request
	$(BIN)/python tools/web/serve.py --build-tables $(WEBARGS)

# The page's npm packages from tools/web's lockfile, into build/npm (npm ci, when it changed).
web-deps: $(PLAYS)  ## the page's npm packages, from tools/web's lockfile
	$(BIN)/python tools/web/npm.py >/dev/null

# The page's budgets in headless Chromium (Debian's /usr/bin/chromium): load to the title
# frame, the site's gzipped size, the longest loop pass while CPUs think -> build/bench_web.json.
bench-web: $(STAMP) web-deps  ## the page's budgets in headless Chromium
	$(BIN)/python tools/web/bench_web.py
