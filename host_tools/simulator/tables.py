"""The strategy tables a simulated device gets, and building them while the game plays.

A fresh clone has none: the exact strategy table, the spread table and the Zoo table take
a minute or two to solve on two cores (the spread table alone 1 min 49 s on a loaded
machine), and the firmware plays without them (no hints, the simple computer players),
opening them at the next game's start once they are there. So ``make sim`` and ``make
web-serve`` show the game at once and build what is missing in a child process
(``TableBuilder``, niced), saying when hints are ready; ``ready()`` is what is built and
current now, ``missing()`` what is not. ``python -m host_tools.simulator.tables`` builds
them all (headless.device_tables).
"""

import os
import subprocess
import sys
import time

import host_tools

host_tools.use_firmware()
import rules  # noqa: E402
import strategy_spread  # noqa: E402
import strategy_table  # noqa: E402

from host_tools.solver import files as solver_files  # noqa: E402


def _wanted():
    """(device name, host path, current?) of each table the simulator gives the device."""
    forced, zoo = rules.make_ruleset(), rules.make_ruleset(rules.ZOO)
    rows = []
    for path, magic, version in (
        (solver_files.table_path(forced), strategy_table.MAGIC, strategy_table.FORMAT_VERSION),
        (solver_files.spread_path(forced), strategy_spread.MAGIC, strategy_spread.FORMAT_VERSION),
        (solver_files.table_path(zoo), strategy_table.MAGIC, strategy_table.FORMAT_VERSION),
    ):
        current = os.path.isfile(path) and not solver_files.older_format(path, magic, version)
        rows.append((os.path.basename(path), path, current))
    return rows


def missing():
    """Device names of the tables still to build (or of an older format)."""
    return [name for name, _path, current in _wanted() if not current]


def ready():
    """{device name: host path} of the tables built and current now (headless.device_tables'
    choice, without building any)."""
    rows = _wanted()
    found = {name: path for name, path, current in rows if current}
    ours = {name for name, _path, _current in rows}
    build = solver_files.BUILD
    for name in sorted(os.listdir(build)) if os.path.isdir(build) else ():
        if name.startswith(("strategy-", "spread-")) and name.endswith(".bin") and "compact" not in name:
            if name not in ours:  # another rules' table someone built
                found[name] = os.path.join(build, name)
    return found


class TableBuilder:
    """The missing tables, built by a child process (niced, so the game stays smooth);
    ``poll()`` once they are: True the first time, and ``on_ready(tables)`` has run with
    every table then ready. ``status()`` is one line for the player."""

    def __init__(self, on_ready=None, log=None):
        self.on_ready = on_ready
        self.started = time.monotonic()
        self.finished = None
        self.ok = None
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "host_tools.simulator.tables"],
            cwd=host_tools.REPO,
            stdin=subprocess.DEVNULL,
            stdout=log if log is not None else subprocess.DEVNULL,
            stderr=subprocess.STDOUT if log is not None else subprocess.DEVNULL,
            preexec_fn=_nice,
        )

    def poll(self):
        if self.finished is not None or self.proc.poll() is None:
            return False
        self.finished = time.monotonic()
        self.ok = self.proc.returncode == 0 and not missing()
        if self.ok and self.on_ready is not None:
            self.on_ready(ready())
        return True

    def status(self):
        self.poll()
        if self.finished is None:
            return "building the strategy tables (%d s): hints come with the game after" % (
                time.monotonic() - self.started
            )
        if not self.ok:
            return "the strategy tables did not build: make table (no hints meanwhile)"
        if time.monotonic() - self.finished < 60:
            return "hints ready: the next game has them"
        return ""

    def close(self):
        """Stop the build (the tables are written whole or not at all: the next run goes on)."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def _nice():
    try:
        os.nice(10)
    except OSError:
        pass


if __name__ == "__main__":
    from host_tools.simulator.headless import device_tables

    device_tables()
