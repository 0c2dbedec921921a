"""docs/architecture.md, "How to add a screen", done for real: a copy of firmware/ gets a
trivial HELLO screen by exactly the steps the paragraph lists (an id in ui/__init__.py, a
(draw, handle, tick) unit in a new ui/ module, the tuple appended to app.SCREENS, a way
in and out), and the app then shows it, takes its buttons, runs its tick and allocates
nothing per frame, inside the real MicroPython on the sim board.
"""

import os
import re
import shutil

import host_tools
from host_tools.simulator.unix_port import SOURCE_HEAP
from host_tools.simulator.screen import screen_lines

DOC = os.path.join(host_tools.REPO, "docs", "architecture.md")

HELLO = '''"""A trivial screen for the test: says hello, counts its frames, OK goes to the menu."""
from drivers.buttons import OK
import ui
from ui import draw

presses = 0  # its state, in its module (module-level: no heap per app)
ticks = 0


def _hello_draw(app, fb):
    draw.clear(fb)
    draw.bar(fb, 0)
    draw.text(fb, "Hello", 0, 0, True)
    draw.number(fb, presses, 15, 2)


def _hello_handle(app, button, long):
    global presses
    if button == OK:
        app.show(ui.MENU_SCREEN)
    else:
        presses += 1
        app.dirty = True


def _hello_tick(app, now):
    global ticks
    ticks += 1


hello = (_hello_draw, _hello_handle, _hello_tick)
'''

PROBE = r"""
from loopback_rig import Rig
from drivers.buttons import UP, OK
import app as app_module
import ui
from ui import hello

rig = Rig({"seed": "5"})
a, press = rig.app, rig.press
a.run(frames=400)
print("IDS", ui.HELLO, len(app_module.SCREENS), app_module.HELLO)
a.show(ui.HELLO)  # the way in
press(UP, 20)
press(UP, 200)
a.run(frames=100)
print("FB", bytes(a.fb.buffer).hex())
print("STATE", a.screen, hello.presses, hello.ticks > 50)
print("ALLOC", rig.allocated(200, True))
press(OK, 20)  # the way out
a.run(frames=60)
print("BACK", a.screen == ui.MENU_SCREEN)
"""


def steps_from_the_doc():
    text = open(DOC, encoding="utf-8").read()
    section = text[text.index("### How to add a screen") :]
    return section[: section.index("\n## ")]


def add_hello(tree):
    """The doc's steps 1-3 on a copy of the firmware."""
    path = os.path.join(tree, "ui", "__init__.py")
    source = open(path).read()
    last = max(int(n) for n in re.findall(r"= const\((\d+)\)", source))
    with open(path, "a") as out:
        out.write("\nHELLO = const(%d)\n" % (last + 1))
    with open(os.path.join(tree, "ui", "hello.py"), "w") as out:
        out.write(HELLO)
    path = os.path.join(tree, "app.py")
    source = open(path).read()
    source = source.replace("from ui import turn_screen\n", "from ui import turn_screen\nfrom ui import hello\n")
    source = source.replace("REVIEW, SUMMARY", "REVIEW, SUMMARY, HELLO", 1)
    table = source.index("SCREENS = (")
    end = source.index("\n)", table)
    source = source[:end] + "\n    hello.hello," + source[end:]
    with open(path, "w") as out:
        out.write(source)
    return last + 1


def test_the_documented_steps_add_a_working_screen(tmp_path):
    steps = " ".join(steps_from_the_doc().replace("`", "").split())
    for named in (
        "firmware/ui/__init__.py",
        "HELLO = const(11)",
        "firmware/ui/<name>.py",
        "firmware/app.py",
        "SCREENS",
        "hello = (_hello_draw, _hello_handle, _hello_tick)",
        "app.show(ui.HELLO)",
    ):
        assert named in steps, named  # the steps this test takes are the ones the doc gives
    tree = str(tmp_path / "firmware")
    shutil.copytree(host_tools.FIRMWARE, tree)
    hello_id = add_hello(tree)
    proc = host_tools.run_micropython(  # a scratch copy's sources, compiled at import: a source run's heap
        ["-c", PROBE],
        heap=SOURCE_HEAP,
        extra_path=(tree, os.path.join(host_tools.REPO, "tests", "shared")),
        cwd=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    lines = proc.stdout.splitlines()
    assert "IDS %d %d %d" % (hello_id, hello_id + 1, hello_id) in lines  # id = its index in SCREENS
    buf = bytes.fromhex([line for line in lines if line.startswith("FB ")][0][3:])
    pixels = [[(buf[(y >> 3) * 128 + x] >> (y & 7)) & 1 for x in range(128)] for y in range(64)]
    shown = screen_lines(pixels)
    assert shown[0] == "Hello"
    assert shown[2].strip() == "2"  # drawn, and both UP presses handled
    assert "STATE %d 2 True" % hello_id in lines  # its tick ran every frame
    assert "ALLOC 0" in lines
    assert "BACK True" in lines
