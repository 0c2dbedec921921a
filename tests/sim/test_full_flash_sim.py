"""Runs the nearly-full-flash cases (tests/shared/full_flash_rig.py) inside
the real MicroPython: the app, the save layer and the records on a small FakeFs."""

import ast
import os

import pytest

import host_tools
from host_tools import fakes

pytestmark = pytest.mark.slow

SHARED = os.path.join(host_tools.REPO, "tests", "shared")
HEAP = (
    "512K"  # source-compiled firmware, this rig and FakeFs files (153 KB live at the end); device RAM is make bench's
)


def _cases():
    with open(os.path.join(SHARED, "full_flash_rig.py")) as source:
        tree = ast.parse(source.read())
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("case_")]


@pytest.mark.parametrize("name", _cases())
def test_full_flash(name):
    script = "import full_flash_rig\nfull_flash_rig.%s()\nprint('PASS')\n" % name
    proc = host_tools.run_micropython(["-c", script], heap=HEAP, extra_path=(SHARED, fakes.FOLDER))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "PASS" in proc.stdout.splitlines(), proc.stdout[-3000:] + proc.stderr[-3000:]
