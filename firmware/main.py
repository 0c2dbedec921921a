"""Boot: read device.cfg, build the board (big buffers first), then run the app.

Order matters on the Pico: the board allocates the OLED frame buffer and driver buffers
while the heap is empty, then the app and game follow. Holding ROLL at power-on is safe
mode: nothing else runs and the REPL stays reachable. A part that failed at boot, a crash
in the app, or files missing after an interrupted flash end in a message on the OLED (or
on the dice when the OLED is the missing part) and on the console - never in a traceback
loop. Importing this module does nothing; the device runs it as ``__main__``.
"""

import gc
import sys

from micropython import const

_ROLL = const(5)  # drivers.buttons.ROLL; a literal so safe mode works even if drivers are damaged
_SAFE_SAMPLES = const(10)  # 10 x 5 ms: the switch has settled by then


def _wrap(text, width=16):
    """Up to 7 lines broken at spaces (ui/pages.py), or cut at the width when the files
    are what is missing or the heap has no room for them (a MemoryError's crash)."""
    try:
        from ui import draw

        return draw.pages().wrap(text, width, 7)
    except Exception:  # ImportError, MemoryError
        return [text[i : i + width] for i in range(0, min(len(text), 7 * width), width)]


def _line(oled, text, row):
    """One line in the game's font (ui/draw.py: every letter of its languages), or
    MicroPython's built-in one when the files are what is missing; row 0 inverted."""
    try:
        from ui.draw import text as put
    except ImportError:
        oled.text(text, 0, row * 8, 0 if row == 0 else 1)
        return
    put(oled, text, 0, row, row == 0)


def show_message(hw, title, text):
    """``title`` and ``text`` on the console, the OLED if there is one, else the dice."""
    print("%s: %s" % (title, text))
    oled = getattr(hw, "oled", None)
    if oled is not None and not getattr(oled, "missing", False):
        try:
            oled.fill(0)
            oled.fill_rect(0, 0, 128, 8, 1)
            _line(oled, title[:16], 0)
            row = 1
            for line in _wrap(text):
                _line(oled, line, row)
                row += 1
            oled.show()
            return
        except Exception as exc:  # the panel itself may be what failed: fall through
            print("OLED unusable:", exc)
    dice = getattr(hw, "dice", None)
    if dice is not None and not getattr(dice, "missing", False):
        try:
            dice.show((1, 1, 1, 1, 1), 0b11111)  # all dice "held" ones: the OLED is missing
        except Exception as exc:
            print("dice unusable:", exc)


def _tell(module, glyphs, width):
    """From now on ``glyphs(number, x, y, width, inverted)`` is told every character the
    font ``module`` (ui/draw.py, ui/font.py: ``width`` its cell's) draws, ``number`` as
    lang.glyph numbers it: for a board that tells the screen as text (the web board's live
    region). The font's ``glyph`` is replaced by one that draws and tells, so a Pico's
    drawing pays nothing for it (a test per glyph slowed the busy-time simulator's busiest
    turn past its 15 s)."""
    draw = module.glyph

    def told(fb, number, x, y, inverted=False):
        draw(fb, number, x, y, inverted)
        glyphs(number, x, y, width, inverted)

    module.glyph = told


def load_board(cfg):
    name = cfg.get("board", "pico")
    package = __import__("boards." + name)
    return getattr(package, name)


def safe_mode_requested(hw):
    down = 0
    for _ in range(_SAFE_SAMPLES):
        hw.sleep_ms(5)  # first: the simulator's buttons arrive with the answer to a wait
        if hw.button_down(_ROLL):
            down += 1
    return down == _SAFE_SAMPLES


def main():
    try:
        import config

        cfg = config.load()
    except ImportError as exc:
        print("firmware incomplete (config.py): reflash.", exc)
        return None
    del config  # read once: its code goes with the next collection
    del sys.modules["config"]
    gc.collect()
    try:
        board = load_board(cfg)
    except ImportError as exc:
        # device.cfg names a board whose module is not here: flash copies only the board it
        # was given (and the drivers that board imports). One line, the REPL stays free.
        name = cfg.get("board")
        print("board %r is not on this device (%s): make flash BOARD=%s" % (name, exc, name))
        return None
    try:
        hw = board.build(cfg)
    except Exception as exc:  # a board that fails to build (driver missing...): report, keep the REPL
        print("board %r failed:" % cfg.get("board"))
        sys.print_exception(exc)
        return None
    if safe_mode_requested(hw):
        if hw.buttons is not None:
            hw.buttons.stop()  # the REPL gets the pins without the game's interrupts
        show_message(hw, "Safe mode", "ROLL held at power-on: game skipped, REPL ready.")
        return hw
    if hw.faults:
        show_message(hw, "Hardware fault", " / ".join(hw.faults))
        return hw
    try:
        if hw.glyphs is not None:  # a board that tells the screen as text (the web board)
            from ui import draw, font

            _tell(draw, hw.glyphs, 8)
            _tell(font, hw.glyphs, font.CELL_W)
        gc.collect()  # boot garbage out of the way before the app's code loads (-13 KB heap)
        import app

        gc.collect()

        application = app.App(hw, cfg)
        gc.collect()  # the App's set-up garbage too, before session's code loads
        import save_session  # saves, records, power saving: loads its files in the first frame

        save_session.Session(hw).attach(application)
        application.run()
    except ImportError as exc:
        show_message(hw, "Reflash needed", "firmware incomplete: %s" % exc)
    except Exception as exc:  # a crash: show it instead of a traceback loop
        sys.print_exception(exc)
        show_message(hw, "Crash", "%s: %s" % (type(exc).__name__, exc))
    return hw


if __name__ == "__main__":
    main()
