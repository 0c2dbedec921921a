"""Boot: device.cfg, the board (big buffers first), then the app. ROLL held at power-on:
safe mode. A failed part, a crash, files missing: a message. Run from source: keep it
within one 4 KiB littlefs block (tests/host/test_flash_units.py)."""

import gc
import sys

from micropython import const

_ROLL = const(5)  # drivers.buttons.ROLL: safe mode without the drivers
_SAFE_SAMPLES = const(10)  # 10 x 5 ms: settled


def show_message(hw, title, text, key=None):
    """On the console (English: flash reads it), the OLED (the title ``key`` in the
    game's language once chosen; the game's font, MicroPython's if files are missing)
    or else the dice."""
    print("%s: %s" % (title, text))
    try:
        lang = sys.modules["lang"]
        title = lang.string(getattr(lang.T, key))
    except Exception:  # no language yet, no key, or no heap
        pass
    oled = getattr(hw, "oled", None)
    if oled is not None and not getattr(oled, "missing", False):
        try:
            oled.fill(0)
            oled.fill_rect(0, 0, 128, 8, 1)
            try:
                from ui import draw

                lines = [title[:16]] + draw.pages().wrap(text, 16, 7)
            except Exception:  # no files, or no heap for them
                draw = None
                lines = [title[:16]] + [text[i : i + 16] for i in range(0, min(len(text), 112), 16)]
            for row in range(len(lines)):
                if draw is None:
                    oled.text(lines[row], 0, row * 8, 0 if row == 0 else 1)
                else:
                    draw.text(oled, lines[row], 0, row, row == 0)
            oled.show()
            return
        except Exception as exc:  # the panel
            print("OLED unusable:", exc)
    dice = getattr(hw, "dice", None)
    if dice is not None and not getattr(dice, "missing", False):
        try:
            dice.show((1, 1, 1, 1, 1), 0b11111)  # held ones: no OLED
        except Exception as exc:
            print("dice unusable:", exc)


def safe_mode_requested(hw):
    down = 0
    for _ in range(_SAFE_SAMPLES):
        hw.sleep_ms(5)
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
    del config  # read once
    del sys.modules["config"]
    gc.collect()
    try:
        name = cfg.get("board", "pico")
        board = getattr(__import__("boards." + name), name)
    except ImportError as exc:
        print("board %r is not on this device (%s): make flash BOARD=%s" % (name, exc, name))
        return None
    try:
        hw = board.build(cfg)
    except Exception as exc:
        print("board %r failed:" % name)
        sys.print_exception(exc)
        return None
    if safe_mode_requested(hw):
        if hw.buttons is not None:
            hw.buttons.stop()  # the pins, without the interrupts
        show_message(hw, "Safe mode", "ROLL held at power-on: game skipped, REPL ready.")
        return hw
    if hw.faults:
        show_message(hw, "Hardware fault", " / ".join(hw.faults))
        return hw
    try:
        if hw.glyphs is not None:  # the web board: the screen as text
            from ui import draw, font

            draw.listen(hw.glyphs)
            font.listen(hw.glyphs)
        gc.collect()  # before the app loads (-13 KB heap)
        import app

        gc.collect()

        application = app.App(hw, cfg)
        gc.collect()  # and before the save layer
        import save_session  # its boot: the first frames' work

        save_session.Session(hw).attach(application)
        application.run()
    except ImportError as exc:
        show_message(hw, "Reflash needed", "firmware incomplete: %s" % exc, "reflash")
    except Exception as exc:  # a crash: a message, no traceback loop
        sys.print_exception(exc)
        show_message(hw, "Crash", "%s: %s" % (type(exc).__name__, exc), "crash")
    return hw


if __name__ == "__main__":
    main()
