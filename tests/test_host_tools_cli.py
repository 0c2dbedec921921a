"""``python -m host_tools``: every listed command exists and answers --help; unknown ones
exit 2; a bad option is exit 2 and one line on stderr."""
import subprocess
import sys

import pytest

from host_tools import REPO
from host_tools.__main__ import COMMANDS


def run(*args):
    return subprocess.run([sys.executable, "-m", "host_tools"] + list(args),
                          capture_output=True, text=True, cwd=REPO, timeout=120)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_answers_help(command):
    proc = run(command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "usage" in proc.stdout.lower()


def test_unknown_command_exits_2_with_the_list():
    proc = run("frobnicate")
    assert proc.returncode == 2
    assert "unknown command" in proc.stderr and "score" in proc.stderr


def test_no_command_prints_usage_and_exits_2():
    proc = run()
    assert proc.returncode == 2 and "commands:" in proc.stdout


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_option_is_exit_2_and_one_line(command):
    proc = run(command, "--no-such-option")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith(command + ": "), proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_is_plain_text(command):
    proc = run(command, "--help")
    assert "``" not in proc.stdout  # reST markup of the docstrings leaked into --help


def test_unknown_command_is_one_line():
    proc = run("frobnicate")
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1 and proc.stdout == ""


def test_the_first_sim_builds_its_table_under_its_own_name(tmp_path, monkeypatch, capsys):
    from host_tools import advise, sim, solve

    monkeypatch.setattr(advise, "BUILD", str(tmp_path))
    monkeypatch.setattr(solve, "build", lambda ruleset, variant: (b"table", 0.0, None))
    tables = sim.device_tables()
    # the menu's Zoo card has its table too; the win meter its spread table
    assert list(tables) == ["spread-forced.bin", "strategy-forced.bin", "strategy-zoo.bin"]
    err = capsys.readouterr().err.splitlines()
    # it said "advise: building"; the Zoo one is quiet
    assert [line.split()[:2] for line in err] == [["sim:", "building"]] * 2
    assert err[0].endswith("strategy-forced.bin (once; cached) ...") and err[1].endswith("spread-forced.bin (once; cached) ...")
