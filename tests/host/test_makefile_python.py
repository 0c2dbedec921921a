"""``make`` picks a Python that can install the pins, or stops early with one line.

The pins need CPython 3.11-3.13 on Linux x86_64 or macOS arm64 (README, Makefile). Each
case copies the Makefile and requirements.txt into a fresh folder and runs ``make -n
test`` (print, do not run) with fake interpreters: shell scripts that print the facts the
Makefile asks a Python for (``3.9 linux x86_64``), so no real install happens.
"""

import os
import shutil
import subprocess
import sys

import pytest

import host_tools
from helpers.checkout import outside_make

MAKE = shutil.which("make")


def fresh_checkout(tmp_path):
    folder = tmp_path / "clone"
    folder.mkdir()
    # and rp2040js's pins: make test installs the emulated Pico's Node packages too
    for name in (
        "Makefile",
        "requirements.txt",
        "host_tools/rp2040/package.json",
        "host_tools/rp2040/package-lock.json",
    ):
        os.makedirs(os.path.dirname(str(folder / name)), exist_ok=True)
        shutil.copy(os.path.join(host_tools.REPO, name), str(folder / name))
    return folder


def fake_python(folder, name, facts):
    path = folder / name
    path.write_text('#!/bin/sh\necho "%s"\n' % facts)
    path.chmod(0o755)
    return str(path)


def make_n(folder, *args, path=None):
    env = outside_make()
    env.pop("PYTHON", None)
    if path is not None:
        env["PATH"] = path
    return subprocess.run(
        [MAKE, "-n", "test"] + list(args), cwd=str(folder), env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    "facts, words",
    [
        ("3.9 linux x86_64", ("Python 3.9", "3.11-3.13")),
        ("3.14 linux x86_64", ("Python 3.14", "3.11-3.13")),
        ("3.12 win32 AMD64", ("win32", "WSL")),
        ("3.12 linux aarch64", ("linux aarch64", "Linux x86_64 and macOS arm64")),
        ("3.12 darwin x86_64", ("darwin x86_64", "Linux x86_64 and macOS arm64")),
    ],
)
def test_a_python_that_cannot_work_stops_with_one_line(tmp_path, facts, words):
    folder = fresh_checkout(tmp_path)
    proc = make_n(folder, "PYTHON=" + fake_python(tmp_path, "py", facts))
    assert proc.returncode != 0
    assert proc.stdout == ""  # stopped before the venv command
    assert len(proc.stderr.strip().splitlines()) == 1, proc.stderr
    for word in words:
        assert word in proc.stderr


def test_a_missing_python_stops_with_one_line(tmp_path):
    proc = make_n(fresh_checkout(tmp_path), "PYTHON=" + str(tmp_path / "nosuchpython"))
    assert proc.returncode != 0
    assert proc.stdout == ""
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "no Python found" in proc.stderr


def test_a_too_old_python3_is_passed_over_for_a_python3_x_that_fits(tmp_path):
    folder = fresh_checkout(tmp_path)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_python(bin_dir, "python3", "3.9 linux x86_64")
    fake_python(bin_dir, "python3.12", "3.12 linux x86_64")
    for tool in ("sh", "cksum", "cut"):  # what the Makefile itself runs, and nothing else
        os.symlink(shutil.which(tool), str(bin_dir / tool))
    proc = make_n(folder, path=str(bin_dir))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == "python3.12 -m venv .venv"


def test_this_python_fits(tmp_path):
    proc = make_n(fresh_checkout(tmp_path), "PYTHON=" + sys.executable)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[0] == sys.executable + " -m venv .venv"


def test_python_m_host_tools_works_from_any_folder_after_make(tmp_path):
    folder = fresh_checkout(tmp_path)
    shutil.copytree(
        os.path.join(host_tools.REPO, "host_tools"),
        str(folder / "host_tools"),
        ignore=shutil.ignore_patterns("__pycache__"),
        dirs_exist_ok=True,
    )
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder / ".venv")], check=True, timeout=120)
    cksum = subprocess.run(
        "cksum < requirements.txt", shell=True, cwd=str(folder), capture_output=True, text=True, check=True
    ).stdout.split()[0]
    (folder / ".venv" / (".installed-" + cksum)).touch()  # as if `make` had installed the pins
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    python = str(folder / ".venv" / "bin" / "python")
    before = subprocess.run(
        [python, "-m", "host_tools", "--help"], cwd=str(elsewhere), capture_output=True, text=True, timeout=60
    )
    assert before.returncode != 0
    assert "No module named host_tools" in before.stderr
    env = outside_make()
    made = subprocess.run([MAKE, "-q", "test"], cwd=str(folder), env=env, capture_output=True, timeout=60)
    assert made.returncode == 1  # the path step is due (and, -q, nothing else ran)
    pth_target = subprocess.run(
        [MAKE, "-n", "test"], cwd=str(folder), env=env, capture_output=True, text=True, timeout=60
    ).stdout.splitlines()
    assert "pico_yahtzee.pth" in pth_target[0]
    subprocess.run(["sh", "-c", pth_target[0]], cwd=str(folder), check=True, timeout=60)
    after = subprocess.run(
        [python, "-m", "host_tools", "--help"], cwd=str(elsewhere), capture_output=True, text=True, timeout=60
    )
    assert after.returncode == 0
    assert "commands:" in after.stdout


def test_make_flash_compact_builds_and_copies_the_compact_table_under_its_own_name(tmp_path):
    """README "Flash the game": `make flash COMPACT=1` builds build/strategy-forced-compact.bin
    (never build/strategy-forced.bin, the exact table's) and flashes that one."""
    folder = fresh_checkout(tmp_path)
    for name in (
        "firmware/strategy_table.py",
        "host_tools/solver/table.py",
        "firmware/strategy_spread.py",
        "host_tools/solver/spread.py",
    ):
        os.makedirs(os.path.dirname(str(folder / name)), exist_ok=True)
        shutil.copy(os.path.join(host_tools.REPO, name), str(folder / name))
    env = outside_make()
    proc = subprocess.run(
        [MAKE, "-n", "flash", "COMPACT=1", "STAMP=", "PTH=", "PYTHON=" + sys.executable],
        cwd=str(folder),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    solves = [line for line in lines if " solve " in line and "--rules forced" in line]
    assert solves, lines
    assert all("--compact --out build/strategy-forced-compact.bin" in line for line in solves), lines
    assert not any("build/strategy-forced.bin" in line for line in lines), lines
    assert lines[-1].split()[1:] == ["-m", "host_tools", "flash", "--compact"]
    plain = subprocess.run(
        [MAKE, "-n", "table", "STAMP=", "PTH=", "PYTHON=" + sys.executable],
        cwd=str(folder),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout.splitlines()
    assert "--out build/strategy-forced.bin" in plain[-1]
    assert "--compact" not in plain[-1]


def test_make_alone_lists_every_target_and_runs_nothing(tmp_path):
    """`make` alone began installing (the first rule was the venv's);
    `make help` is the default goal and names every .PHONY target."""
    import re

    folder = fresh_checkout(tmp_path)
    proc = subprocess.run([MAKE, "-n"], cwd=str(folder), env=outside_make(), capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "pip install" not in proc.stdout
    assert "-m venv" not in proc.stdout  # nothing would be installed
    listed = subprocess.run(
        [MAKE, "-s"], cwd=str(folder), env=outside_make(), capture_output=True, text=True, timeout=60
    ).stdout.splitlines()
    assert listed[0] == "make TARGET, with TARGET one of:"
    with open(os.path.join(host_tools.REPO, "Makefile")) as f:
        phony = re.search(r"^\.PHONY: (.*)$", f.read(), re.M).group(1).split()
    assert sorted(line.split()[0] for line in listed[1:]) == sorted(phony)
    assert not (folder / ".venv").exists()


def test_make_venv_makes_the_environment_with_the_checkout_on_its_path(tmp_path):
    """`make venv`: the pinned tools and the .pth, without running the suite."""
    folder = fresh_checkout(tmp_path)
    proc = subprocess.run(
        [MAKE, "-n", "venv", "PYTHON=" + sys.executable],
        cwd=str(folder),
        env=outside_make(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == sys.executable + " -m venv .venv"
    assert any("pip install" in line and "requirements.txt" in line for line in lines)
    assert any("pico_yahtzee.pth" in line for line in lines)
    assert not any("-m pytest" in line or "npm ci" in line for line in lines)
