"""Documented examples run as written: each command is taken from the
page's own text (docs/development.md, docs/strategy.md, docs/playing.md), run by the shell
from a fresh folder, and must give what the page shows under it."""

import os
import re
import shutil
import subprocess
import sys
import pytest

import host_tools
from helpers.checkout import fresh_checkout

pytestmark = pytest.mark.slow


def _page(*path):
    with open(os.path.join(host_tools.REPO, *path), encoding="utf-8") as f:
        return f.read()


# The README is the product page; the examples it promised live in the pages it links.
DEVELOPMENT = _page("docs", "development.md")
STRATEGY = _page("docs", "strategy.md")
PLAYING = _page("docs", "playing.md")


def shell(command, cwd):
    """``command`` as a shell runs it, with ``python`` this interpreter (the venv's, whose
    .pth puts the checkout on its path, as ``make`` leaves it)."""
    assert command.startswith("python ")
    return subprocess.run(
        ["sh", "-c", '"$PY" ' + command[len("python ") :]],
        cwd=str(cwd),
        capture_output=True,
        text=True,
        env=dict(os.environ, PY=sys.executable),
        timeout=600,
    )


def test_the_headless_example_makes_the_turn_picture_shown_under_it(tmp_path, sim_tables):
    from host_tools.simulator.png import read_png

    block = re.search(r"```\n(python -m host_tools sim --headless[^`]*?)\n```", DEVELOPMENT).group(1)
    command = block.replace("\\\n", " ")
    assert "--screenshot turn.png" in command
    proc = shell(command, tmp_path)
    assert proc.returncode == 0, proc.stderr
    shown = re.search(r"!\[turn\]\((img/sim_turn\.png)\)", DEVELOPMENT).group(1)
    assert read_png(str(tmp_path / "turn.png")) == read_png(os.path.join(host_tools.REPO, "docs", shown))


def test_the_to_win_example_runs_with_the_shipped_cards_and_prints_what_the_readme_shows(tmp_path):
    """me.json and them.json ship in docs/examples/; run from a fresh checkout (its build/
    given the solver's cached tables, so no table is solved here)."""
    import rules
    from host_tools import solve
    from host_tools.solver import cache as solver_cache

    found = re.search(r"\n {6}\$ (python -m host_tools advise [^\n]*--to-win)\n((?: {6}[^\n]*\n)+)", STRATEGY)
    command, shown = found.group(1), [line[6:] for line in found.group(2).splitlines()]
    clone = fresh_checkout(str(tmp_path / "clone"))
    os.makedirs(os.path.join(clone, "build"))
    forced = rules.make_ruleset()
    shutil.copy(solver_cache.table(forced, "exact"), os.path.join(clone, "build", "strategy-forced.bin"))
    shutil.copy(
        solver_cache.spread_table(forced, solve.SPREAD_BANDS), os.path.join(clone, "build", "spread-forced.bin")
    )
    proc = shell(command, clone)
    assert proc.returncode == 0, proc.stderr
    assert shown[-1].strip() == "..."
    assert proc.stdout.splitlines()[: len(shown) - 1] == shown[:-1]


def test_the_score_examples_run_as_written_one_after_another(tmp_path):
    """docs/playing.md's score block: every ``$`` line in order, in one fresh folder (its
    ``--card card.json`` needed the file the block did not make)."""
    block = re.search(r"```\n(\$ python -m host_tools score .*?)```", PLAYING, re.S).group(1)
    commands = [line[2:] for line in block.splitlines() if line.startswith("$ ")]
    assert any("--card card.json" in command for command in commands)
    for command in commands:
        proc = subprocess.run(
            ["sh", "-c", re.sub(r"^python ", '"$PY" ', command)],
            cwd=str(tmp_path),
            capture_output=True,
            text=True,
            env=dict(os.environ, PY=sys.executable),
            timeout=120,
        )
        assert proc.returncode == 0, (command, proc.stderr)
        assert proc.stderr == "", command
