# Every target installs the pinned tools into .venv first (see requirements.txt).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)

.PHONY: test bench sim flash repl dev table clean chip chip-deps uf2

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m host_tools bench

# The emulated Pico (host_tools chip): rp2040js pinned by host_tools/rp2040/package-lock.json,
# installed with `npm ci` into build/rp2040 (Node 18+). make chip [CHIPARGS="--fresh ..."]
NODE_DIR := build/rp2040
NODE_STAMP := $(NODE_DIR)/.installed-$(shell cksum < host_tools/rp2040/package-lock.json | cut -d' ' -f1)

$(NODE_STAMP): host_tools/rp2040/package.json host_tools/rp2040/package-lock.json
	mkdir -p $(NODE_DIR)
	cp host_tools/rp2040/package.json host_tools/rp2040/package-lock.json $(NODE_DIR)/
	cd $(NODE_DIR) && npm ci --no-audit --no-fund --silent
	rm -f $(NODE_DIR)/.installed-*
	touch $@

chip-deps: $(NODE_STAMP)

chip: $(STAMP) $(NODE_STAMP)
	$(PY) -m host_tools chip $(CHIPARGS)

sim: $(STAMP)
	$(PY) -m host_tools sim $(SIMARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis

# make table [RULES=forced] [COMPACT=1]: optimal-strategy value table for the device,
# build/strategy-<rules>.bin (exact, ~1.05 MiB; COMPACT=1: ~576 KiB for the Pico W).
# `make flash` builds the exact table first when there is none (about 5-10 s).
TABLE_RULES = $(or $(RULES),forced)
TABLE_FILE = build/strategy-$(TABLE_RULES).bin

table: $(STAMP)
	$(PY) -m host_tools solve --rules $(TABLE_RULES) $(if $(COMPACT),--compact) --out $(TABLE_FILE)

$(TABLE_FILE): | $(STAMP)
	$(PY) -m host_tools solve --rules $(TABLE_RULES) --out $@

# make flash [PORT=/dev/ttyACM0] [BOARD=pico] [RULES=forced]: compile, copy what changed, reset.
# make repl [PORT=...]: MicroPython's REPL. make dev [PORT=...] [BOARD=...]: run the
# firmware straight from this checkout (mpremote mount), nothing copied to the Pico.
FLASHARGS = $(if $(PORT),--port $(PORT)) $(if $(BOARD),--board $(BOARD)) $(if $(RULES),--rules $(RULES))

flash: $(STAMP) $(TABLE_FILE)
	$(PY) -m host_tools flash $(FLASHARGS)

repl: $(STAMP)
	$(PY) -m host_tools flash --repl $(if $(PORT),--port $(PORT))

dev: $(STAMP)
	$(PY) -m host_tools flash --dev $(FLASHARGS)

# make uf2 [FIRMWARE=RPI_PICO-v1.28.0.uf2] [BOARD=pico] [RULES=forced] [COMPACT=1] [OUT=FILE]:
# one .uf2 with MicroPython, the game and its strategy table, to drop on the BOOTSEL drive
# (README "For players"); default FIRMWARE: the one .uf2 in build/micropython/,
# default OUT: build/pico-yahtzee-<board>.uf2.
UF2_OUT = $(or $(OUT),build/pico-yahtzee-$(or $(BOARD),pico).uf2)

uf2: $(STAMP)
	mkdir -p build
	$(PY) -m host_tools uf2 $(if $(FIRMWARE),--firmware $(FIRMWARE)) $(if $(BOARD),--board $(BOARD)) $(if $(RULES),--rules $(RULES)) $(if $(COMPACT),--compact) --out $(UF2_OUT)
