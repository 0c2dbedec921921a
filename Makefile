# Every target installs the pinned tools into .venv first (see requirements.txt).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cksum < requirements.txt | cut -d' ' -f1)

.PHONY: test bench sim flash repl dev table clean

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --disable-pip-version-check -r requirements.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest

bench: $(STAMP)
	$(PY) -m host_tools bench

sim: $(STAMP)
	$(PY) -m host_tools sim $(SIMARGS)

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis

# make table [RULES=forced] [COMPACT=1]: optimal-strategy value table for the device,
# build/strategy-<rules>.bin (exact, ~1.04 MiB; COMPACT=1: ~584 KiB for the Pico W).
# `make flash` builds the exact table first when there is none (about 5-10 s).
TABLE_RULES = $(or $(RULES),forced)
TABLE_FILE = build/strategy-$(TABLE_RULES).bin

table: $(STAMP)
	$(PY) -m host_tools solve --rules $(TABLE_RULES) $(if $(COMPACT),--compact) --out $(TABLE_FILE)

# Rebuilt when the table format's code changes (an older table would be refused).
$(TABLE_FILE): firmware/strategy_table.py host_tools/solver/table.py | $(STAMP)
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
