"""The simulator's terminal front-end: draws the five dice and the OLED, reads keys.

The device's virtual clock is paced to real time here. A terminal reports key presses
but no releases: ``keys.KeyPresses`` turns each key into a tap, queues quick taps so none
is lost, and keeps an auto-repeating key held (``M``: a long press). The OLED is drawn
with half blocks (two pixel rows per character) when the terminal has room for them (HALF_SIZE),
else with braille (2 x 4 pixels per character, BRAILLE_SIZE); a smaller terminal gets one
line saying what size is needed. ``q quit`` comes first in the help line, so it stays
visible however the line is cut.
"""

import os
import re
import select
import shutil
import sys
import termios
import textwrap
import time
import tty

from host_tools.emulators.oled import half_blocks
from host_tools.simulator.backend import DIMMED, DeviceExited, dimmed
from host_tools.simulator.keys import TAP_MS, KeyPresses

LONG_MS = 900
FRAME_S = 1 / 30
STEP_MS = 5  # device time per step: the firmware polls its buttons every 5 ms
_KEYS = {"1": 0, "2": 1, "3": 2, "4": 3, "5": 4, " ": 5, "\x1b[A": 6, "\x1b[B": 7, "\r": 8, "\n": 8, "m": 9, "M": 9}
HELP = "q quit  1-5 hold  space roll  \u2191\u2193 move  enter OK  m hint/card/back  M quit game"
# (columns, rows) a layout needs: 4 dice lines, the framed OLED, the help line.
BRAILLE_SIZE = (68, 4 + 18 + 1)
HALF_SIZE = (132, 4 + 34 + 1)
_RED = "\x1b[38;2;255;60;40m"
_ORANGE = "\x1b[38;2;255;140;0m"
_DIM = "\x1b[38;2;70;20;20m"
_CYAN = "\x1b[38;2;120;210;255m"
_DIM_CYAN = "\x1b[38;2;30;55;70m"  # the OLED at power saving's contrast
_RESET = "\x1b[0m"
_ESCAPES = re.compile("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b.?")  # a CSI sequence whole, or ESC and the next


def _braille(pixels):
    dots = (
        (0, 0, 0x01),
        (0, 1, 0x02),
        (0, 2, 0x04),
        (1, 0, 0x08),
        (1, 1, 0x10),
        (1, 2, 0x20),
        (0, 3, 0x40),
        (1, 3, 0x80),
    )
    lines = []
    for y in range(0, 64, 4):
        line = []
        for x in range(0, 128, 2):
            code = 0
            for dx, dy, bit in dots:
                if pixels[y + dy][x + dx] == 1:
                    code |= bit
            line.append(chr(0x2800 + code))
        lines.append("".join(line))
    return lines


def too_small(columns, rows):
    """The one line to show instead of the device when the terminal cannot hold it, or None."""
    if columns >= BRAILLE_SIZE[0] and rows >= BRAILLE_SIZE[1]:
        return None
    return "terminal %dx%d too small: needs %dx%d (q quits)" % (columns, rows, BRAILLE_SIZE[0], BRAILLE_SIZE[1])


def printable(line):
    """A console line as text only: the raw REPL's control bytes (Ctrl-A..D, ESC
    sequences a flash or pull sends) are dropped, not sent to the terminal."""
    return "".join(ch for ch in _ESCAPES.sub("", line) if ch.isprintable())


def frame_lines(device, columns, rows=HALF_SIZE[1] + 5, status=""):
    """The whole device as coloured terminal lines: at most ``rows`` lines, none wider
    than ``columns`` (assumes ``too_small`` said nothing). ``status`` (e.g. the chip's
    serial port) ends the help line, so it stays on screen."""
    half = columns >= HALF_SIZE[0] and rows >= HALF_SIZE[1]
    lines = []
    dice = device.dice_pixels()
    for y in range(0, 8, 2):
        parts = []
        for grid in dice:
            cells = []
            for x in range(8):
                top, bottom = grid[y][x], grid[y + 1][x]
                if any(top) or any(bottom):
                    lit = top if any(top) else bottom
                    colour = _ORANGE if lit[1] > lit[0] // 5 and lit[1] < lit[0] * 3 // 5 else _RED
                    cells.append(colour + " \u2584\u2580\u2588"[(1 if any(top) else 0) * 2 + (1 if any(bottom) else 0)])
                else:
                    cells.append(_DIM + "\u00b7")
            parts.append("".join(cells))
        lines.append("  " + "   ".join(parts) + _RESET)
    pixels = device.oled_pixels()
    oled = half_blocks(pixels) if half else _braille(pixels)
    width = len(oled[0])
    spare = rows - HALF_SIZE[1] if half else rows - BRAILLE_SIZE[1]
    if spare >= 2:  # room for air above and below the dice
        lines.insert(0, "")
        lines.append("")
        spare -= 2
    title = (" " + DIMMED + " ")[:width] if dimmed(device) else ""  # else the next press looks lost
    lines.append(" \u250c" + title + "\u2500" * (width - len(title)) + "\u2510")
    colour = _DIM_CYAN if title else _CYAN
    lines += [" \u2502" + colour + line + _RESET + "\u2502" for line in oled]
    lines.append(" \u2514" + "\u2500" * width + "\u2518")
    freq, duty = device.tone
    sound = ("  \u266a %d Hz" % freq) if duty else ""
    tail = ("  " + status if status else "") + sound
    lines.append(" " + HELP[: max(6, columns - 2 - len(tail))] + tail[: max(0, columns - 8)])
    for line in device.console[-3:][-spare:] if spare > 0 else ():
        lines.append(" > " + printable(line)[: columns - 4])
    return lines


def _read_keys(fd, timeout):
    ready, _, _ = select.select([fd], [], [], max(0.0, timeout))
    if not ready:
        return []
    data = os.read(fd, 64).decode("utf-8", "replace")
    keys = []
    i = 0
    while i < len(data):
        if data[i] == "\x1b" and data[i + 1 : i + 3] in ("[A", "[B", "[C", "[D"):
            keys.append(data[i : i + 3])
            i += 3
        else:
            keys.append(data[i])
            i += 1
    return keys


def play(device, status=None):
    """Play ``device`` in the terminal; ``status``, a line for the help row: text, or a
    function giving it now (None: nothing)."""
    if not sys.stdin.isatty():
        print("sim: the interactive simulator needs a terminal (use --headless --keys ...)", file=sys.stderr)
        device.close()
        return 2
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    out = sys.stdout
    presses = KeyPresses()
    start = time.monotonic()
    last_draw = 0.0
    drawn = None
    code = 0
    try:
        tty.setcbreak(fd)
        out.write("\x1b[?25l\x1b[2J")
        while True:
            ms = STEP_MS
            target = start + (device.now + ms) / 1000.0
            keys = _read_keys(fd, target - time.monotonic())
            arrived = int((time.monotonic() - start) * 1000)
            for key in keys:
                if key in ("q", "Q", "\x03"):
                    return 0
                if key in _KEYS:
                    presses.key(_KEYS[key], device.now, arrived, LONG_MS if key == "M" else TAP_MS)
            device.buttons = presses.mask(device.now)
            device.run_until(device.now + ms)
            now = time.monotonic()
            if now - last_draw >= FRAME_S:
                size = shutil.get_terminal_size((80, 24))
                state = (
                    device.frames,
                    device.chain.latches,
                    device.strip.writes,
                    len(device.console),
                    device.tone,
                    status if isinstance(status, str) else status() if status is not None else "",
                    tuple(size),
                )
                if state != drawn:
                    if drawn is not None and drawn[-1] != state[-1]:
                        out.write("\x1b[2J")  # resized: no leftovers of the old layout
                    message = too_small(size.columns, size.lines)
                    if message:
                        wrapped = textwrap.wrap(message, max(10, size.columns - 1))
                        out.write("\x1b[H" + "\x1b[K\n".join(wrapped) + "\x1b[K\x1b[J")
                    else:
                        out.write(
                            "\x1b[H"
                            + "\x1b[K\n".join(frame_lines(device, size.columns, size.lines, state[-2]))
                            + "\x1b[K\x1b[J"
                        )
                    out.flush()
                    drawn = state
                last_draw = now
    except DeviceExited:
        code = 1
    except KeyboardInterrupt:
        code = 0
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
        out.write("\x1b[?25h" + _RESET + "\n")
        out.flush()
        device.close()
    if code:
        print("the firmware stopped:\n" + "\n".join(printable(line) for line in device.console[-20:]))
    return code
