"""``flash`` never puts the web board on a Pico: the board-module selection of a Pico
board leaves boards/web.py out, and ``flash`` / ``uf2`` refuse ``--board web`` with one
line and exit status 2, writing nothing."""

import os
import subprocess
import sys
import pytest

import host_tools
from host_tools.flashing import build as flash_build

pytestmark = pytest.mark.slow


def test_a_pico_build_leaves_the_web_board_out():
    pairs = flash_build.source_files(host_tools.REPO)
    for board in ("pico", "pico2", "pico_sh1106", "pico_neopixel"):
        needed = flash_build.board_modules(pairs, board)
        assert "/boards/web.py" not in needed
        assert "/boards/%s.py" % board in needed
    assert "/boards/web.py" in flash_build.board_modules(pairs, "web")  # the site's build takes it


def test_flash_and_uf2_refuse_the_web_board(tmp_path):
    out = tmp_path / "x.uf2"
    for argv in (
        ["flash", "--board", "web", "--port", str(tmp_path / "no-port")],
        ["uf2", "--board", "web", "--out", str(out)],
    ):
        proc = subprocess.run(
            [sys.executable, "-m", "host_tools"] + argv,
            capture_output=True,
            text=True,
            cwd=host_tools.REPO,
            timeout=120,
        )
        assert proc.returncode == 2, proc.stdout + proc.stderr
        lines = proc.stderr.strip().splitlines()
        assert len(lines) == 1, lines
        assert "web" in lines[0], lines
        assert "not on a Pico" in lines[0], lines
    assert os.listdir(tmp_path) == []
