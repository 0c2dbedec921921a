"""The built site in headless Chromium (PyPI playwright, driving a Chromium given by path):
served on 127.0.0.1 as a plain static host, played by real pointer presses on the page's
buttons. Used by the browser tests and by ``web --screenshots`` (docs/img/web-*.png).

Chromium: $CHROMIUM, else /usr/bin/chromium (Debian's ``apt-get install chromium``);
playwright cannot download its own browser here, and need not.
"""

import contextlib
import os
import shutil
import tempfile
import threading
import time

from host_tools.browser import serve
from host_tools.simulator.wire import frame_pixels
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.backend import BUTTONS

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOW_TO_GET = "no Chromium for the browser tests: apt-get install chromium (or set CHROMIUM=/path/to/chromium)"
NO_PLAYWRIGHT = (
    "web: playwright (pinned in requirements.txt) is not installed in this Python: make venv installs the pins"
)
# Chromium's setting "Don't allow sites to save data on your device" (cookies and site data).
SITE_DATA_BLOCKED = {"profile": {"default_content_setting_values": {"cookies": 2}}}
# A name that is not this computer's own address for the browser, resolved to 127.0.0.1
# (so nothing leaves the machine): the page as a phone on the LAN would open it.
LAN_NAME = "pico-yahtzee.test"
LAN_ARGS = ("--host-resolver-rules=MAP %s 127.0.0.1" % LAN_NAME,)
# A human's turn in real time: roll, score the first box offered.
HUMAN_TURN = " space wait:900 enter wait:300 enter wait:400"


def slow(script, ms=200):
    """``script`` with a pause after each press: real time on a busy machine (a press made
    while the firmware loads a screen's code is missed, as on a Pico)."""
    return " ".join(word if word.startswith("wait:") else "%s wait:%d" % (word, ms) for word in script.split())


PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 3, "is_mobile": True, "has_touch": True}


def chromium_path():
    """The Chromium to drive, or None."""
    path = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
    return path if os.path.isfile(path) and os.access(path, os.X_OK) else shutil.which("chromium")


@contextlib.contextmanager
def serving(folder, handler=serve.QuietHandler):
    httpd = serve.server(folder, 0, handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield "http://127.0.0.1:%d/" % httpd.server_address[1]
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextlib.contextmanager
def browser(args=(), preferences=None, **context_options):
    """A Chromium context with a new empty user-data-dir (its IndexedDB survives reloads
    and new pages of this context, as a browser profile does); ``args`` more command-line
    flags, ``preferences`` the profile's settings (Chromium's Preferences file, e.g. site
    data blocked)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # a .venv made before requirements.txt pinned it: say so, not a traceback
        raise SystemExit(NO_PLAYWRIGHT) from None

    profile = tempfile.mkdtemp(prefix="web-profile-")
    if preferences is not None:
        import json

        os.makedirs(os.path.join(profile, "Default"))
        with open(os.path.join(profile, "Default", "Preferences"), "w") as f:
            json.dump(preferences, f)
    try:
        with sync_playwright() as p:
            context = p.chromium.launch_persistent_context(
                profile, executable_path=chromium_path(), args=FLAGS + list(args), headless=True, **context_options
            )
            try:
                yield context
            finally:
                context.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


class Page:
    """The handheld page: ``open``, ``keys`` (a simulator key script, as pointer presses),
    ``oled_pixels``, ``dice_pixels`` (the view screen.dice_state reads)."""

    dice_kind = "max7219"

    def __init__(self, page, touch=False):
        self.page = page
        self.touch = touch

    def open(self, url, timeout=20000):
        started = time.monotonic()
        self.page.goto(url)
        self.page.wait_for_function("window.handheld && window.handheld.frames > 0", timeout=timeout)
        return time.monotonic() - started

    def open_beside(self, url, timeout=20000):
        """Open the site in a second tab of a browser that already plays it there: the
        page says another tab has the saves; take them over (Play here)."""
        self.page.goto(url)
        self.take_over(timeout)

    def take_over(self, timeout=20000):
        """Press Play here: this tab takes the saves over and its firmware starts anew."""
        frames = self.handheld("frames")
        self.page.wait_for_selector("#takeover:not([hidden])", timeout=timeout)
        self.page.click("#takeover")
        self.page.wait_for_function("f => window.handheld.frames > f", arg=frames, timeout=timeout)

    def handheld(self, name):
        return self.page.evaluate("window.handheld.%s" % name)

    def press(self, button, ms=sim_keys.PRESS_MS):
        box = self.page.locator('[data-button="%d"]' % button).bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if self.touch:
            self.page.touchscreen.tap(x, y)  # a tap: the page holds it for pressMs
            time.sleep(ms / 1000)
            return
        self.page.mouse.move(x, y)
        self.page.mouse.down()
        time.sleep(ms / 1000)
        self.page.mouse.up()

    def keys(self, script):
        """Play a simulator key script (host_tools/simulator/keys.py) in real time."""
        for word in script.split():
            parts = word.split(":")
            if parts[0] == "wait":
                time.sleep(int(parts[1]) / 1000)
                continue
            if parts[0] == "hold":
                self.press(BUTTONS.index(parts[1]), int(parts[2]))
            else:
                self.press(BUTTONS.index(word))
            time.sleep(sim_keys.GAP_MS / 1000)

    def oled_pixels(self):
        return frame_pixels(bytes(self.page.evaluate("Array.from(window.handheld.oled())")))

    def dice_pixels(self):
        rows = self.page.evaluate("window.handheld.dice()")
        return [[[(1, 0, 0) if (row >> (7 - x)) & 1 else (0, 0, 0) for x in range(8)] for row in die] for die in rows]

    def wait_for_line(self, first_line, timeout=15):
        """Wait until the OLED's first text line starts with ``first_line``; returns the lines."""
        from host_tools.simulator.screen import screen_lines

        deadline = time.monotonic() + timeout
        while True:
            lines = screen_lines(self.oled_pixels())
            if lines[0].startswith(first_line) or time.monotonic() > deadline:
                return lines
            time.sleep(0.1)
