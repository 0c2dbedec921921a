"""A newcomer's first screen: from a fresh clone to the simulator's menu, with and without the tables.

A fresh clone of this checkout (``git clone``, so no build/) gets its venv with ``make
venv``; then the simulator starts as ``make sim`` does, minus the terminal: the game boots
at once while the missing strategy, spread and Zoo tables are built in the background
(host_tools/simulator/tables.py), and the time to the menu on the OLED is taken (the
simulator's clock is virtual: the splash's 1.5 s cost no wall time).
Then the tables are built (what the first screen used to wait for) and the first screen
is taken again with them there. Wall-clock seconds on this machine, one run each (pip's
cache warm when it has run before).
"""

import os
import subprocess
import sys
import tempfile
import time

import host_tools
from host_tools import benches

# Run by the clone's own venv: seconds from its start to the first picture on the OLED.
_FIRST_SCREEN = """
import sys, tempfile, time
began = time.monotonic()
from host_tools.simulator import headless, tables
from host_tools.simulator.screen import screen_lines
from host_tools.simulator.unix_port import SimDevice
builder = tables.TableBuilder() if tables.missing() else None
device = SimDevice(flash_dir=tempfile.mkdtemp(), tables=tables.ready() if builder else headless.device_tables())
while "Start game" not in chr(10).join(screen_lines(device.oled_pixels())) and device.now < 10000:
    device.run_until(device.now + 20)
print("FIRST", time.monotonic() - began, "building" if builder else "ready")
device.close()
if builder is not None:
    builder.close()
"""

_BUILD_TABLES = "from host_tools.simulator import headless\nheadless.device_tables()\n"


def _run(cmd, cwd, timeout):
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES", "VIRTUAL_ENV", "PYTHONPATH"):
        env.pop(name, None)
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def first_screen(clone):
    """(seconds to the menu, whether the tables were still building then)."""
    done = _run([os.path.join(clone, ".venv", "bin", "python"), "-c", _FIRST_SCREEN], clone, 600)
    for line in done.stdout.splitlines():
        if line.startswith("FIRST "):
            _tag, seconds, state = line.split()
            return float(seconds), state == "building"
    raise RuntimeError("no first screen: %s" % (done.stderr.strip() or done.stdout.strip())[-300:])


def run():
    with tempfile.TemporaryDirectory() as folder:
        clone = os.path.join(folder, "pico-yahtzee")
        began = time.monotonic()
        cloned = _run(["git", "clone", "--quiet", host_tools.REPO, clone], folder, 300)
        if cloned.returncode:
            print("first screen: not measured, git clone failed: %s" % cloned.stderr.strip()[-200:])
            return benches.FAILED
        venv = _run(["make", "venv", "PYTHON=%s" % sys.executable], clone, 1200)
        if venv.returncode:
            print("first screen: not measured, make venv failed: %s" % venv.stderr.strip()[-200:])
            return benches.FAILED
        venv_s = time.monotonic() - began
        try:
            first, building = first_screen(clone)
        except RuntimeError as exc:
            print("first screen: not measured, %s" % exc)
            return benches.FAILED
        print(
            "fresh clone to the first screen: %.0f s (git clone and make venv %.0f s, then %.1f s to the menu%s)"
            % (venv_s + first, venv_s, first, " while the tables build" if building else "")
        )
        t = time.monotonic()
        built = _run([os.path.join(clone, ".venv", "bin", "python"), "-c", _BUILD_TABLES], clone, 1800)
        tables_s = time.monotonic() - t
        if built.returncode:
            print("first screen: the tables did not build: %s" % built.stderr.strip()[-200:])
            return benches.FAILED
        try:
            again, _building = first_screen(clone)
        except RuntimeError as exc:
            print("first screen: not measured with the tables, %s" % exc)
            return benches.FAILED
        print(
            "first screen with no tables built yet: %.1f s; with them: %.1f s; building the strategy, spread and "
            "Zoo tables (what it used to wait for): %.0f s" % (first, again, tables_s)
        )
    return None
