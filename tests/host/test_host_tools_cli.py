"""``python -m host_tools``: every listed command exists and answers --help; unknown ones
exit 2; a bad option is exit 2 and one line on stderr."""

import subprocess
import sys

import pytest

from host_tools import REPO
from host_tools.__main__ import COMMANDS

pytestmark = pytest.mark.slow


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools"] + list(args), capture_output=True, text=True, cwd=REPO, timeout=120
    )


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_command_answers_help(command):
    proc = run(command, "--help")
    assert proc.returncode == 0, proc.stderr
    assert "usage" in proc.stdout.lower()


def test_unknown_command_exits_2_with_the_list():
    proc = run("frobnicate")
    assert proc.returncode == 2
    assert "unknown command" in proc.stderr
    assert "score" in proc.stderr


def test_no_command_prints_usage_and_exits_2():
    proc = run()
    assert proc.returncode == 2
    assert "commands:" in proc.stdout


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_bad_option_is_exit_2_and_one_line(command):
    proc = run(command, "--no-such-option")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1, proc.stderr
    assert proc.stderr.startswith(command + ": "), proc.stderr
    assert proc.stdout == ""


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_help_is_plain_text(command):
    proc = run(command, "--help")
    assert "``" not in proc.stdout  # reST markup of the docstrings leaked into --help


def test_unknown_command_is_one_line():
    proc = run("frobnicate")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert proc.stdout == ""


def test_the_first_sim_builds_its_table_under_its_own_name(tmp_path, monkeypatch, capsys):
    from host_tools import sim
    from host_tools.solver import files as solver_files

    monkeypatch.setattr(solver_files, "BUILD", str(tmp_path))
    monkeypatch.setattr(solver_files, "build", lambda ruleset, variant: (b"table", 0.0, None))
    tables = sim.device_tables()
    # the menu's Zoo card has its table too; the win meter its spread table
    assert list(tables) == ["spread-forced.bin", "strategy-forced.bin", "strategy-zoo.bin"]
    err = capsys.readouterr().err.splitlines()
    # it said "advise: building"; the Zoo one is quiet
    assert [line.split()[:2] for line in err] == [["sim:", "building"]] * 2
    assert err[0].endswith("strategy-forced.bin (once; cached) ...")
    assert err[1].endswith("spread-forced.bin (once; cached) ...")


def planted(folder, name):
    """``folder/name`` with ``<name>.tmp`` planted as a link to a victim file."""
    victim = folder / "victim.txt"
    victim.write_text("keep me\n")
    (folder / (name + ".tmp")).symlink_to(victim)
    return folder / name, victim


def test_solve_never_writes_through_a_planted_tmp_link(tmp_path):
    """solve wrote its table through an existing ``<out>.tmp`` link (over
    the file it points to); temp files are now made exclusively under a fresh name."""
    out, victim = planted(tmp_path, "zoo.bin")
    proc = run("solve", "--rules", "zoo", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert victim.read_text() == "keep me\n"
    assert out.read_bytes()[:4] == b"YZOT"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["victim.txt", "zoo.bin", "zoo.bin.tmp"]  # no temp left


def test_sim_screenshot_never_writes_through_a_link(tmp_path):
    """--screenshot was opened for writing as named: a link there (or at shot.png.tmp)
    had the picture written over the file it points to."""
    out, victim = planted(tmp_path, "shot.png")
    out.symlink_to(victim)
    proc = run(
        "sim",
        "--headless",
        "--no-table",
        "--flash-dir",
        str(tmp_path / "flash"),
        "--keys",
        "enter",
        "--screenshot",
        str(out),
    )
    assert proc.returncode == 0, proc.stderr
    assert victim.read_text() == "keep me\n"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert not out.is_symlink()


def test_an_output_link_is_replaced_not_written_through(tmp_path):
    """The output named by a link: the link is replaced by the new file; the file it
    pointed to is left as it was (the shared helper renames over the name)."""
    import host_tools

    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    (tmp_path / "out.bin").symlink_to(victim)
    host_tools.write_file_atomic(str(tmp_path / "out.bin"), b"new")
    assert victim.read_text() == "keep me\n"
    assert (tmp_path / "out.bin").read_bytes() == b"new"
    assert not (tmp_path / "out.bin").is_symlink()


def test_too_long_names_and_the_same_file_twice_are_refused_before_the_solve(tmp_path):
    """A too-long --screenshot was a traceback after the game; solve --out F
    --spread F wrote the spread table over the value table. Refused first, nothing written."""
    proc = run(
        "sim",
        "--headless",
        "--no-table",
        "--flash-dir",
        str(tmp_path / "flash"),
        "--screenshot",
        str(tmp_path / ("x" * 300 + ".png")),
    )
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr.count("\n") == 1
    assert "too long" in proc.stderr
    assert not (tmp_path / "flash").exists()
    proc = run("solve", "--out", str(tmp_path / "t.bin"), "--spread", str(tmp_path / "t.bin"))
    assert (proc.returncode, proc.stdout) == (2, "")
    assert "name the same file" in proc.stderr
    assert list(tmp_path.iterdir()) == []
