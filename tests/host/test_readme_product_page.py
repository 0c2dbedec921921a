"""What README.md promises, run the way it shows it (from a fresh folder where it matters).

The product page names a few commands; each is checked here: the score example runs and
answers, every make target it names is one ``make`` lists, and the targets it describes
run the commands the deeper pages document.
"""

import os
import re
import shlex
import subprocess
import sys

import host_tools

with open(os.path.join(host_tools.REPO, "README.md"), encoding="utf-8") as _f:
    README = _f.read()


def make(*words):
    return subprocess.run(
        ["make", "-s", "-C", host_tools.REPO] + list(words), capture_output=True, text=True, timeout=120
    )


def test_the_score_example_runs_as_written_from_a_fresh_folder(tmp_path):
    command = re.search(r"`(python -m host_tools score [^`]+)`", README).group(1)
    words = shlex.split(command)
    proc = subprocess.run([sys.executable] + words[1:], cwd=str(tmp_path), capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert re.search(r"(?m)^Fours +20$", proc.stdout), proc.stdout  # five 4s, Yahtzee box filled: the joker, fours 20


def test_every_make_target_the_readme_names_is_one_make_lists():
    named = set(re.findall(r"(?m)(?:^|`)make ([a-z][a-z0-9-]*)", README))
    assert {"sim", "flash", "uf2", "venv", "test", "test-quick", "web-serve"} <= named
    listed = make().stdout
    for target in sorted(named):
        assert re.search(r"(?m)^  %s\s" % re.escape(target), listed), (target, listed)


def test_the_targets_run_what_the_docs_describe():
    quick = make("-n", "test-quick").stdout
    assert "ruff check" in quick
    assert "pytest -m" in quick
    assert "not chip" in quick
    assert "not browser" in quick
    assert "-m host_tools web --serve" in make("-n", "web-serve").stdout
    assert "-m host_tools sim" in make("-n", "sim").stdout
