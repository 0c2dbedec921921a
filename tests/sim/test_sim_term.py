"""The interactive simulator's front-end: quick key presses are all played, a key held by
terminal auto-repeat is a held button, and the picture fits the terminal (or says it
cannot) with ``q quit`` visible.
"""

import re
import tempfile

import pytest

from host_tools import sim
from host_tools.simulator import keys as sim_keys
from host_tools.simulator import term
from host_tools.simulator.screen import device_text
from host_tools.simulator.unix_port import SimDevice

DOWN = 7
UP = 6


def presses_seen(presses, until_ms, poll_ms=5):
    """[(from, to), ...] of one button as the firmware polls it every ``poll_ms``."""
    seen, start = [], None
    for now in range(0, until_ms, poll_ms):
        down = presses.mask(now) >> DOWN & 1
        if down and start is None:
            start = now
        elif not down and start is not None:
            seen.append((start, now))
            start = None
    return seen


@pytest.mark.parametrize("arrivals", [(0, 60, 120, 180), (0, 100, 200, 300), (0, 0, 0, 0)])
def test_quick_taps_are_each_a_press_the_firmware_can_see(arrivals):
    presses = sim_keys.KeyPresses()
    for t in arrivals:  # (0, 0, 0, 0): four keys read from the terminal at once
        presses.key(DOWN, t, t)
    seen = presses_seen(presses, 2000)
    assert len(seen) == 4
    assert all(end - start >= 30 for start, end in seen)  # past the 25 ms debounce
    assert all(b[0] - a[1] >= 30 for a, b in zip(seen, seen[1:]))  # released in between


def test_auto_repeat_holds_the_button_until_the_repeats_stop():
    presses = sim_keys.KeyPresses()
    arrivals = [0] + list(range(500, 1500, 33))  # a tap, the repeat delay, then 30 Hz repeats
    for t in arrivals:
        presses.key(DOWN, t, t)
    seen = presses_seen(presses, 3000)
    assert len(seen) == 2
    start, end = seen[1]
    assert start == 500
    assert end >= arrivals[-1]
    assert end - start > 600  # a long press on the device


@pytest.fixture(scope="module")
def menu_device():
    """A simulated device on its menu (one boot shared by the tests below)."""
    with tempfile.TemporaryDirectory() as flash:
        device = SimDevice(seed=1, flash_dir=flash)
        sim.run_headless(device, "enter")
        yield device
        device.close()


def test_four_quick_up_keys_move_the_menu_cursor_four_times(tmp_path):
    def screen(feed):
        device = SimDevice(seed=1, flash_dir=str(tmp_path / str(len(screens))))
        try:
            sim.run_headless(device, "enter")
            feed(device)
            return device_text(device)
        finally:
            device.close()

    def quick_taps(n):
        def feed(device):
            presses, t0 = sim_keys.KeyPresses(), device.now
            for i in range(n):
                presses.key(UP, t0 + 70 * i, t0 + 70 * i)
            device.run_until(t0 + 1000, presses.mask)

        return feed

    def script(device):
        presses, end = sim_keys.parse("up up up up", device.now)
        device.run_until(end + 400, sim_keys.levels(presses))

    screens = []
    for feed in (quick_taps(4), script, quick_taps(1)):
        screens.append(screen(feed))
    assert screens[0] == screens[1]  # as four separate presses
    assert screens[0] != screens[2]


def visible(line):
    return re.sub("\x1b\\[[0-9;?]*[A-Za-z]", "", line)


@pytest.mark.parametrize("columns, rows", [(80, 24), (68, 23), (100, 30), (140, 60)])
def test_the_picture_fits_the_terminal_with_q_quit_visible(menu_device, columns, rows):
    assert term.too_small(columns, rows) is None
    lines = term.frame_lines(menu_device, columns, rows)
    assert len(lines) <= rows
    assert max(len(visible(line)) for line in lines) <= columns
    assert any("q quit" in line for line in lines)
    half = any("\u2580" in line or "\u2584" in line for line in lines[5:])
    assert half == (columns >= 132 and rows >= 39)


@pytest.mark.parametrize("columns, rows", [(80, 20), (60, 24), (40, 10)])
def test_a_too_small_terminal_is_told_so_in_one_line(columns, rows):
    message = term.too_small(columns, rows)
    assert "%dx%d too small" % (columns, rows) in message
    assert "q quits" in message
    assert "\n" not in message


def test_the_chip_port_stays_on_screen_and_console_lines_are_text_only(menu_device):
    """`make chip` printed its port and then cleared the screen; after a
    flash or pull the console lines showed the raw REPL's control bytes."""
    menu_device.console.append("\x01\x04raw REPL; CTRL-B to exit\r\x1b[2J>OK\x04\x04>")
    try:
        for columns, rows in ((80, 30), (140, 60)):
            lines = term.frame_lines(menu_device, columns, rows, "port /dev/pts/7")
            assert any("port /dev/pts/7" in visible(line) for line in lines), lines
            assert any("q quit" in line for line in lines)
            assert max(len(visible(line)) for line in lines) <= columns
            shown = [line for line in lines if line.startswith(" > ")]
            assert shown[-1] == " > raw REPL; CTRL-B to exit>OK>"
            assert all(ch.isprintable() for line in shown for ch in line)
    finally:
        menu_device.console.pop()
