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
