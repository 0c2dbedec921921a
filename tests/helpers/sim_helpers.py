"""Pytest-side helpers for the tests that run the firmware on the sim board (no test cases).

- ``play(flash, keys, **options)``: boot main.py in a headless ``SimDevice`` whose flash
  folder is ``flash`` (``options``: its ``seed``, ``heap``, ``tables``, ``extra``), play
  the key script in virtual time, shut it down and return the device (its emulated OLED
  and dice keep the last picture).
- ``saved(flash, name="game")``: the value the firmware last saved in ``data/<name>``
  there, read with the firmware's own ``storage`` module (None when nothing is saved).
- ``forget_setup(flash)``: removes the menu's saved set-up (``data/setup.*``), so the
  next boot starts from the menu's defaults again, as a replayed key script expects.
- ``run_probe(code, heap=DEVICE_HEAP, **run_options)``: run MicroPython ``code`` on what
  a Pico runs (the .mpy tree ``flash`` builds, device_tree.py, at the Pico's heap, as
  ``SimDevice`` does) with tests/shared on the path; returns the CompletedProcess.
- ``alloc_probe(probe, heap=DEVICE_HEAP, **run_options)``: ``run_probe`` an allocation
  probe built on tests/shared/loopback_rig.py (``rig.measure`` prints ``ALLOC label
  bytes``); returns its output lines and ``{label: bytes}``.
- ``released_in_order(presses, windows=(), got=None)``: the SHORT events ``presses``
  ((from, to, button) each) make, in release order; the releases inside one flash call
  of ``windows`` (``SimDevice.flash_windows``) as a group in ``got``'s order.
- ``presses_taken(device)``: the events the game took (the sim board's ``presslog=1``).
- ``APP_ON_LOOPBACK``: MicroPython source that builds the sim board on a loopback link
  (seed 3) and the real app, runs two frames and defines ``dump()``, which draws a frame
  and prints the frame buffer as ``FB <hex>`` (for screens the key scripts cannot reach
  easily: tests add their own state and read the dump back).
"""

import os

import host_tools
import save_store
from host_tools import sim
from host_tools.simulator import device_tree
from host_tools.simulator.unix_port import DEVICE_HEAP, SimDevice

SHARED = os.path.join(host_tools.REPO, "tests", "shared")

APP_ON_LOOPBACK = r"""
import game, rules
from boards import sim
import app
link = sim.Loopback()
hw = sim.build({"link": link, "seed": "3"})
a = app.App(hw, {})
a.run(frames=2)

def dump():
    a.frame(hw.ticks_ms())
    print("FB", bytes(hw.oled.buffer).hex())
"""


def play(flash, keys, **options):
    device = SimDevice(flash_dir=str(flash), **options)
    try:
        sim.run_headless(device, keys)
    finally:
        device.close()
    return device


def play_seen(flash, keys, then, **options):
    """``play`` of ``keys``, the screen's lines there (once it settled), then ``then`` on
    the same device (no reboot): ``(device, lines)``. For a screen that shows before the
    presses that finish what it started (the end screen, then its OK: the records)."""
    from host_tools.simulator import headless, keys as sim_keys
    from host_tools.simulator.screen import screen_lines

    seen_at = sim_keys.parse(keys)[1] + headless.SETTLE_MS
    presses, end = sim_keys.parse(keys + " wait:%d " % headless.SETTLE_MS + then)
    device = SimDevice(flash_dir=str(flash), **options)
    try:
        levels = sim_keys.levels(presses)
        device.run_until(seen_at, levels)
        lines = screen_lines(device.oled_pixels())
        device.run_until(end + headless.SETTLE_MS, levels)
    finally:
        device.close()
    return device, lines


def press(device, script):
    """Play the key ``script`` on a running ``device`` from its time now, then 300 ms more."""
    from host_tools.simulator import keys as sim_keys

    presses, end = sim_keys.parse(script, max(device.now, sim_keys.START_MS))
    device.run_until(end + 300, sim_keys.levels(presses))


def play_out(device, humans=("P1",), until="Game over", limit_ms=900000):
    """Play the game on ``device`` as its human seats' players would, to the screen whose
    first line starts with ``until`` (returns its lines): a human rolls once and scores
    the box under the cursor (OK, OK); where a computer waits for the score before it to
    stand, or shows what it scored, OK goes on."""
    from host_tools.simulator.screen import screen_lines

    end = device.now + limit_ms
    while device.now < end:
        lines = screen_lines(device.oled_pixels())
        if lines[0].startswith(until):
            return lines
        if " Roll 0/3" in lines[0] and lines[0][:2] in humans:
            press(device, "space")
        elif " Roll " in lines[0] and lines[0][:2] in humans:
            press(device, "enter enter")
        elif "OK: go on" in [line.strip() for line in lines]:
            press(device, "enter")  # a computer waits for OK, or shows what it scored
        else:
            device.run_until(device.now + 200)
    raise AssertionError("no %r screen: %s" % (until, lines))


def saved(flash, name="game"):
    return save_store.Store(os.path.join(str(flash), "data", name)).load()


def forget_setup(flash):
    folder = os.path.join(str(flash), "data")
    for name in os.listdir(folder) if os.path.isdir(folder) else ():
        if name.startswith("setup."):
            os.remove(os.path.join(folder, name))


def run_probe(code, heap=DEVICE_HEAP, **run_options):
    return host_tools.run_micropython(["-c", code], heap=heap, extra_path=(SHARED, device_tree.sync()), **run_options)


def alloc_probe(probe, heap=DEVICE_HEAP, **run_options):
    proc = run_probe(probe, heap, **run_options)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    allocs = {}
    for line in lines:
        words = line.split()
        if words and words[0] == "ALLOC":
            allocs[words[1]] = int(words[2])
    return lines, allocs


def released_in_order(presses, windows=(), got=None):
    """The SHORT events of ``presses`` in the order they were released. With the device's
    flash calls (``SimDevice.flash_windows``), the releases inside one call are a group:
    the interrupts are off in there, so the hardware keeps no order among its edges, and
    the group comes in ``got``'s order when ``got`` has just those presses there."""
    keyed = []
    for _start, end, button in presses:
        # an edge at a call's last ms is still its (the host sends the edges up to then)
        inside = [w for w in windows if w[1] is not None and w[0] <= end <= max(w)]
        keyed.append((max(inside[0]) if inside else end, inside[0] if inside else None, button))
    keyed.sort(key=lambda k: (k[0], k[2]))
    want = []
    i = 0
    while i < len(keyed):
        j = i + 1
        while j < len(keyed) and keyed[i][1] is not None and keyed[j][1] == keyed[i][1]:
            j += 1
        group = [k[2] for k in keyed[i:j]]
        if got is not None and sorted(got[len(want) : len(want) + len(group)]) == sorted(group):
            group = got[len(want) : len(want) + len(group)]
        want += group
        i = j
    return want


def presses_taken(device):
    """The buttons of the events the game took, in order (``presslog=1``'s PRESS lines)."""
    return [int(line.split()[1]) for line in device.console if line.startswith("PRESS ")]
