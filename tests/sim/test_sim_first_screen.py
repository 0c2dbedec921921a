"""The first screen does not wait for the strategy tables.

A fresh clone's ``make sim`` built the venv, then the strategy, spread and Zoo tables,
and only then booted the firmware: about 3.5 minutes on a loaded 2-core machine, where
the README promised about a minute. The firmware plays without the tables (no hints, the
simple computer players) and opens them at a game's start, so the interactive simulator
and ``make web-serve`` now start at once and build what is missing in the background,
saying when hints are ready; headless runs (tests, docs) still build first.
"""

import os
import subprocess

import pytest

import host_tools
from host_tools import sim
from host_tools.simulator import headless, tables as sim_tables
from host_tools.simulator import term as sim_term

pytestmark = pytest.mark.slow


class FakeBuilder:
    made = []

    def __init__(self, on_ready=None, log=None):
        self.on_ready = on_ready
        self.closed = False
        FakeBuilder.made.append(self)

    def status(self):
        return "building the strategy tables (3 s): hints come with the game after"

    def close(self):
        self.closed = True


def test_the_interactive_simulator_boots_at_once_and_builds_the_tables_meanwhile(tmp_path, monkeypatch):
    shown = {}

    def no_build():
        raise AssertionError("the tables were built before the first screen")

    def play(device, status=None):
        device.run_until(2000)
        shown["screen"] = device.oled_pixels()
        shown["status"] = status()
        device.close()
        return 0

    monkeypatch.setattr(sim, "device_tables", no_build)
    monkeypatch.setattr(headless, "device_tables", no_build)
    monkeypatch.setattr(sim_tables, "missing", lambda: ["spread-forced.bin"])
    monkeypatch.setattr(sim_tables, "ready", lambda: {})
    monkeypatch.setattr(sim_tables, "TableBuilder", FakeBuilder)
    monkeypatch.setattr(sim_term, "play", play)
    FakeBuilder.made = []
    assert sim.main(["--flash-dir", str(tmp_path / "flash"), "--seed", "3"]) == 0
    assert any(any(row) for row in shown["screen"]), "nothing on the OLED"
    assert shown["status"].startswith("building the strategy tables")
    (builder,) = FakeBuilder.made
    assert builder.closed  # quitting stops the build: the next run goes on from the files
    assert not [n for n in os.listdir(tmp_path / "flash") if n.endswith(".bin")]
    (tmp_path / "built.bin").write_bytes(b"table")
    builder.on_ready({"strategy-forced.bin": str(tmp_path / "built.bin")})  # done: linked in
    assert os.path.realpath(tmp_path / "flash" / "strategy-forced.bin") == str(tmp_path / "built.bin")


def test_the_builder_says_when_hints_are_ready_and_hands_over_the_tables(tmp_path):
    """With the tables in build/ (this checkout's), the child has nothing to solve and ends
    at once: the builder hands over every table ready and says hints are ready."""
    headless.device_tables()
    got = []
    builder = sim_tables.TableBuilder(on_ready=got.append)
    try:
        assert builder.status().startswith("building the strategy tables (")
        builder.proc.wait(timeout=120)
        assert builder.poll()
        assert builder.status() == "hints ready: the next game has them"
    finally:
        builder.close()
    assert sim_tables.missing() == []
    assert {"strategy-forced.bin", "spread-forced.bin", "strategy-zoo.bin"} <= set(got[0])


def test_make_web_serve_does_not_wait_for_the_tables():
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):  # CI runs pytest under make
        env.pop(name, None)
    shown = subprocess.run(
        ["make", "-n", "-W", "firmware/strategy_table.py", "-W", "firmware/strategy_spread.py", "web-serve", "PTH="],
        capture_output=True,
        text=True,
        cwd=host_tools.REPO,
        env=env,
    )
    assert shown.returncode == 0, shown.stderr
    assert "host_tools web --serve" in shown.stdout
    assert "host_tools solve" not in shown.stdout  # before: the three tables, minutes
