"""The ``python -m host_tools sim`` command: headless runs, PNG, text screen, bad input,
the flash folder as the device's filesystem, booting another code tree, and the
interactive terminal front-end on a pseudo-terminal.
"""

import os
import re
import pty
import select
import shutil
import subprocess
import sys
import time

import pytest

import host_tools
from host_tools.simulator.png import read_png

pytestmark = pytest.mark.slow

CMD = [sys.executable, "-m", "host_tools", "sim"]


@pytest.fixture(scope="module", autouse=True)
def _tables(sim_tables):
    """Every test here runs ``sim`` from this checkout: its tables are made first."""
    return sim_tables


def run(args, **kwargs):
    return subprocess.run(CMD + args, capture_output=True, text=True, cwd=host_tools.REPO, timeout=120, **kwargs)


@pytest.mark.parametrize(
    "args",
    [
        ["--headless", "--keys", "enter jump"],
        ["--headless", "--keys", "wait:-5"],
        ["--headless", "--keys", "hold:m"],
        ["--board", "pico"],
        ["--seed", "x"],
        ["--headless", "--battery", "4000:3000:0"],
        ["--headless", "--battery", "4000:3000:00"],  # a zero span however written (crashed the firmware)
        ["--headless", "--battery", "4.1"],
        ["--keys", "enter"],  # without --headless: the interactive simulator started and ignored it
        ["--print-screen"],
    ],
)
def test_bad_input_exits_2_with_one_line(args, tmp_path):
    proc = run(args + ["--flash-dir", str(tmp_path)])
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1
    assert proc.stderr.startswith("sim: ")


def test_headless_screenshot_and_print_screen(tmp_path):
    png = tmp_path / "out.png"
    proc = run(
        [
            "--headless",
            "--seed",
            "1",
            "--flash-dir",
            str(tmp_path),
            "--keys",
            "enter enter wait:6000 space",
            "--screenshot",
            str(png),
            "--print-screen",
        ]
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("dice: ")
    assert len(lines[0].split()) == 6
    assert "Roll 1/3" in lines[2]
    width, height, rows = read_png(str(png))
    assert (width, height) == (352, 248)
    lit_oled = sum(1 for row in rows for i in range(0, len(row), 3) if row[i : i + 3] == bytes((120, 210, 255)))
    assert lit_oled > 500
    red = sum(1 for row in rows[16:72] for i in range(0, len(row), 3) if row[i] > 150 and row[i + 1] < 60)
    assert red > 100  # the dice are lit


def test_flash_dir_is_the_devices_filesystem(tmp_path):
    (tmp_path / "device.cfg").write_text("board=pico\nrules=ordered\n")  # board is overridden by the sim
    proc = run(["--headless", "--flash-dir", str(tmp_path), "--keys", "enter", "--print-screen"])
    assert proc.returncode == 0, proc.stderr
    assert any("Joker" in line and "in order" in line for line in proc.stdout.splitlines())


def test_code_dir_boots_a_flashed_tree(tmp_path):
    code = tmp_path / "code"
    shutil.copytree(host_tools.FIRMWARE, str(code), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        os.path.join(host_tools.REPO, "boards"), str(code / "boards"), ignore=shutil.ignore_patterns("__pycache__")
    )
    with open(code / "lang_en.py", "a") as patched:  # prove this tree is the one running
        patched.write('\nTEXTS += ("start_game = Go!\\n",)\n')
    flash = tmp_path / "flash"
    proc = run(["--headless", "--code-dir", str(code), "--flash-dir", str(flash), "--keys", "enter", "--print-screen"])
    assert proc.returncode == 0, proc.stderr
    assert "|Go!" in proc.stdout or ">Go!" in proc.stdout  # ">": the cursor's row


def test_a_firmware_crash_is_reported_with_status_1(tmp_path):
    code = tmp_path / "code"
    shutil.copytree(host_tools.FIRMWARE, str(code), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        os.path.join(host_tools.REPO, "boards"), str(code / "boards"), ignore=shutil.ignore_patterns("__pycache__")
    )
    with open(code / "app.py", "a") as patched:
        patched.write("\ndef _boom(self, event):\n    raise RuntimeError('boom')\nApp.handle = _boom\n")
    proc = run(
        ["--headless", "--code-dir", str(code), "--flash-dir", str(tmp_path / "f"), "--keys", "enter", "--print-screen"]
    )
    assert proc.returncode == 1
    assert "RuntimeError: boom" in proc.stderr
    assert "|Crash" in proc.stdout or ">Crash" in proc.stdout  # the crash screen reached the OLED


def test_interactive_front_end_draws_and_quits(tmp_path):
    pid, fd = pty.fork()
    if pid == 0:  # child: the simulator on a terminal
        os.chdir(host_tools.REPO)
        os.environ["COLUMNS"], os.environ["LINES"] = "140", "60"
        os.execv(sys.executable, CMD + ["--seed", "1", "--flash-dir", str(tmp_path)])
    output = b""
    deadline = time.monotonic() + 30
    sent = False
    status = None
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
        if not sent and b"\xe2\x94\x8c" in output and len(output) > 20000:  # the OLED frame is drawn
            os.write(fd, b"\r")  # OK: splash -> menu
            time.sleep(0.5)
            os.write(fd, b"q")
            sent = True
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the simulator did not quit on q")
    if status is None or not os.WIFEXITED(status):
        _done, status = os.waitpid(pid, 0)
    assert sent
    assert os.WIFEXITED(status)
    assert os.WEXITSTATUS(status) == 0
    assert "\u2584".encode() in output or "\u2580".encode() in output  # half blocks drawn


def test_sh1106_and_neopixel_variants_show_the_same_game(tmp_path):
    keys = ["--headless", "--seed", "1", "--keys", "enter enter wait:6000 space 2 4", "--print-screen"]
    plain = run(keys + ["--flash-dir", str(tmp_path / "a")])
    variant = run(keys + ["--flash-dir", str(tmp_path / "b"), "--oled", "sh1106", "--dice", "neopixel"])
    assert plain.returncode == 0, plain.stderr + variant.stderr
    assert variant.returncode == 0, plain.stderr + variant.stderr
    assert plain.stdout == variant.stdout
    assert plain.stdout.splitlines()[0].count("[") == 2  # dice 2 and 4 held


def test_missing_led_chain_is_reported_on_the_oled(tmp_path):
    from host_tools import sim
    from host_tools.simulator.unix_port import DeviceExited, SimDevice
    from host_tools.simulator.screen import screen_lines

    device = SimDevice(flash_dir=str(tmp_path), extra=("fault=dice",))
    try:
        sim.run_headless(device, "enter")
    except DeviceExited:
        pass  # main.py returned to the REPL after showing the fault
    finally:
        device.close()
    lines = screen_lines(device.oled_pixels())
    assert lines[0] == "Hardware fault"
    assert "MAX7219" in lines[1]
    assert any("MAX7219" in line for line in device.console)


def tree_state(folder, skip=("data",)):
    """{relative path: (kind, content)} of everything in ``folder``, links as links."""
    state = {}
    for top, dirs, files in os.walk(str(folder)):
        dirs[:] = [d for d in dirs if os.path.relpath(os.path.join(top, d), str(folder)) not in skip]
        for name in dirs + files:
            path = os.path.join(top, name)
            rel = os.path.relpath(path, str(folder))
            if os.path.islink(path):
                state[rel] = ("link", os.readlink(path))
            elif os.path.isfile(path):
                with open(path, "rb") as f:
                    state[rel] = ("file", f.read())
            else:
                state[rel] = ("dir", None)
    return state


def test_code_dir_is_never_modified_even_as_the_flash_folder(tmp_path):
    from host_tools.solver import cache as solver_cache
    import rules

    code = tmp_path / "pico"
    shutil.copytree(host_tools.FIRMWARE, str(code), ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(
        os.path.join(host_tools.REPO, "boards"), str(code / "boards"), ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copyfile(solver_cache.table(rules.make_ruleset(), "exact"), str(code / "strategy-forced.bin"))
    before = tree_state(code)
    proc = run(["--headless", "--code-dir", str(code), "--flash-dir", str(code), "--keys", "enter"])
    assert proc.returncode == 0, proc.stderr
    assert tree_state(code) == before  # the flashed table stays a file: no link put in its place
    proc = run(["--headless", "--code-dir", str(code), "--flash-dir", str(code), "--keys", "enter", "--no-table"])
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert "--code-dir" in proc.stderr
    assert tree_state(code) == before
    # Another flash folder holding its own (flashed) table: --no-table does not delete it either.
    proc = run(["--headless", "--flash-dir", str(code), "--keys", "enter", "--no-table"])
    assert proc.returncode == 2
    assert "device's own table" in proc.stderr
    assert tree_state(code) == before


def first_roll(seed, tmp_path):
    from host_tools import sim as sim_command
    from host_tools.simulator.golden import SOLO
    from host_tools.simulator.screen import dice_line
    from host_tools.simulator.unix_port import SimDevice

    device = SimDevice(seed=seed, flash_dir=str(tmp_path / ("s%d" % seed)))
    try:
        sim_command.run_headless(device, SOLO + " space wait:1500")
    finally:
        device.close()
    return dice_line(device)


def test_nearby_seeds_give_unrelated_games(tmp_path):
    rolls = [first_roll(seed, tmp_path) for seed in range(8)]
    assert all("?" not in roll and "." not in roll for roll in rolls), rolls
    assert len(set(rolls)) == 8, rolls  # seeds 0..15 all rolled a 5 first before the mixing
    assert len(set(roll.split()[0] for roll in rolls)) > 1


def test_seeds_wrap_at_2_to_the_32(tmp_path):
    keys = ["--headless", "--keys", "enter down enter enter enter up enter wait:300 space wait:1500", "--print-screen"]
    huge = run(keys + ["--seed", "99999999999999999999", "--flash-dir", str(tmp_path / "a")])
    wrapped = run(keys + ["--seed", str(99999999999999999999 % 2**32), "--flash-dir", str(tmp_path / "b")])
    minus = run(keys + ["--seed", "-1", "--flash-dir", str(tmp_path / "c")])
    top = run(keys + ["--seed", str(2**32 - 1), "--flash-dir", str(tmp_path / "d")])
    assert huge.returncode == 0, huge.stderr  # crashed the firmware: "int beyond 64 bits"
    assert huge.stdout == wrapped.stdout
    assert minus.stdout == top.stdout
    assert huge.stdout != minus.stdout


def test_a_wait_beyond_an_hour_is_refused_at_once(tmp_path):
    start = time.monotonic()
    proc = run(["--headless", "--flash-dir", str(tmp_path), "--keys", "enter wait:99999999999"])
    assert proc.returncode == 2
    assert len(proc.stderr.splitlines()) == 1
    assert "wait:99999999999" in proc.stderr
    assert time.monotonic() - start < 30
    proc = run(["--headless", "--flash-dir", str(tmp_path), "--keys", "enter wait:3600000"])  # an hour: fine
    assert proc.returncode == 0, proc.stderr


def test_a_too_small_terminal_is_told_the_size_it_needs(tmp_path):
    pid, fd = pty.fork()
    if pid == 0:  # child: the simulator on a 60x20 terminal
        os.chdir(host_tools.REPO)
        os.environ["COLUMNS"], os.environ["LINES"] = "60", "20"
        os.execv(sys.executable, CMD + ["--seed", "1", "--flash-dir", str(tmp_path), "--no-table"])
    output = b""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and b"too small" not in output:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                output += os.read(fd, 65536)
            except OSError:
                break
    os.write(fd, b"q")
    for _ in range(100):
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        time.sleep(0.1)
    else:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        pytest.fail("the simulator did not quit on q")
    text = output.decode("utf-8", "replace")
    assert "terminal 60x20 too small: needs 68x23 (q quits)" in text
    assert "\u2800" not in text
    assert "\u250c" not in text  # no OLED drawn into it
    assert os.WIFEXITED(status)
    assert os.WEXITSTATUS(status) == 0


def test_lang_plays_in_that_language_over_the_one_the_menu_kept(tmp_path):
    flash = str(tmp_path)
    # The menu's Language line (two up from Start game: Records, Language) stepped once:
    # English -> Deutsch, kept with the set-up.
    proc = run(["--headless", "--flash-dir", flash, "--keys", "enter up up enter", "--print-screen"])
    assert proc.returncode == 0, proc.stderr
    assert ">Sprache  Deutsch<" in proc.stdout  # the whole menu in German at once
    again = run(["--headless", "--flash-dir", flash, "--keys", "wait:1600", "--print-screen"])
    assert ">Spiel starten   <" in again.stdout  # the next power-on: still German
    dutch = run(["--headless", "--flash-dir", flash, "--lang", "nl", "--keys", "wait:1600", "--print-screen"])
    assert ">Start het spel  <" in dutch.stdout  # this run's language, over the kept one
    assert "|S2 CPU losjes   |" in dutch.stdout
    kept = run(["--headless", "--flash-dir", flash, "--keys", "wait:1600", "--print-screen"])
    assert ">Spiel starten   <" in kept.stdout  # --lang changed no set-up


def test_a_game_saved_in_dutch_goes_on_in_german_with_the_same_scores(tmp_path):
    # Saves keep ids, not words: three turns scored in Dutch, the power cut, the next
    # power-on in German offers the same game (same round, same player), and it goes on
    # with the same total.
    flash = str(tmp_path)
    solo = "enter down enter enter enter up enter wait:300"
    dutch = run(
        ["--headless", "--flash-dir", flash, "--lang", "nl", "--seed", "3", "--keys", solo + " space enter enter" * 3]
        + ["--print-screen"]
    )
    assert dutch.returncode == 0, dutch.stderr
    assert "Worp 0/3" in dutch.stdout
    total = re.search(r">S1 Worp 0/3 +(\d+)<", dutch.stdout).group(1)
    german = run(["--headless", "--flash-dir", flash, "--lang", "de", "--keys", "wait:1600", "--print-screen"])
    assert ">Spielstand      <" in german.stdout, german.stdout
    assert "|Runde 4, S1     |" in german.stdout
    assert "> Weiterspielen  <" in german.stdout
    going_on = run(["--headless", "--flash-dir", flash, "--lang", "de", "--keys", "wait:1600 enter", "--print-screen"])
    assert re.search(r">S1 Wurf 0/3 +%s<" % total, going_on.stdout), going_on.stdout
