"""``make sim`` / ``python -m host_tools sim``: play the unmodified firmware on the desktop.

The firmware's main.py runs in the MicroPython unix port with the ``sim`` board; its
OLED, dice and buzzer byte streams are decoded by the datasheet emulators and drawn in
the terminal (host_tools/simulator/term.py). Keys: 1-5 hold, space roll, arrows up/down, enter
OK, m hint (with the coach on and a table; again: card) or card, M (a long press) quit game,
q quit.

The strategy table: the firmware opens ``strategy-<rules>.bin`` in its flash root (the
flash folder here). The simulator builds ``build/strategy-forced.bin``, the spread table
``build/spread-forced.bin`` (win meter, CPU win) and the Zoo table when they are missing
(the solver, a minute or two; then cached): interactively in the background while the
game plays without them (simulator/tables.py; the status line says when hints are ready,
and the next game has them), headless before it boots. It links every
``build/strategy-<rules>.bin`` and
``build/spread-<rules>.bin`` into the flash folder; ``--no-table`` removes those links to
play as a device without one. A table that is a regular file in the flash folder is the
device's own (flashed): it is used and never replaced or deleted. ``--code-dir`` is never
modified: when the flash folder is in it, the device plays with exactly the tables that
are there.

The device boots what ``flash`` would put on a Pico (firmware/ and boards/ compiled to
.mpy, build/sim-code/: simulator/device_tree.py) with the Pico's heap (``--heap``);
``--code-dir`` boots another tree.

``--seed N`` wraps at 2^32 and is mixed (``unix_port.mix_seed``), so nearby seeds give
unrelated games.

``--challenge CODE`` (four letters) makes the games started in the menu challenges: their
dice come from the code (firmware/game.py ``challenge_die``), the same as on a handheld or
the web page given that code; the menu's first line says so.

``--lang CODE`` plays in that language, over the one the menu kept (the menu's Language
line still changes it for the run); ``--print-screen`` names the Zoo card's animals in it.

Headless (tests, docs): ``--headless --keys "enter space 1 wait:500 hold:m:800"`` plays
the keys in virtual time (as fast as the pipes allow; the same ``--seed`` on an empty
``--flash-dir`` always gives the same result: a folder with a saved game boots to it), then ``--screenshot out.png`` writes a PNG of the whole device and
``--print-screen`` prints the dice and the OLED as text. ``--busy-time``: the firmware's
work costs the chip's time (host_tools/simulator/busy.py) and key presses arrive during
it, as on the device (without it the clock stands still while the firmware works). ``--regen-golden`` rewrites
tests/sim/golden/ and ``--regen-images`` the README's pictures in docs/img/.
"""

import host_tools
import os
import re
import sys

from host_tools import texts
from host_tools.flashing.build import BuildError
from host_tools.simulator import device_tree, keys as sim_keys
from host_tools.simulator import tables as sim_tables
from host_tools.simulator.headless import device_tables, run_headless
from host_tools.simulator.unix_port import (
    BUTTON_NAMES,
    BUTTONS,
    DEFAULT_FLASH,
    DEVICE_HEAP,
    DeviceExited,
    SimDevice,
    own_tables,
    put_table,
    remove_tables,
)

HOLD_AT_BOOT_MS = 1000  # --hold-at-boot without :MS


def link_tables(flash_dir, tables):
    """Put the tables built while the game played into the device's flash folder (its
    next game opens them)."""
    for name, path in tables.items():
        put_table(flash_dir, name, path)


def hold_at_boot(text):
    """``ROLL`` or ``ROLL:MS`` (a device button name or a key name) -> (mask, ms)."""
    name, _, ms = text.partition(":")
    upper = [b.upper() for b in BUTTON_NAMES]
    if name.upper() in upper:
        button = upper.index(name.upper())
    elif name in BUTTONS:
        button = BUTTONS.index(name)
    else:
        raise host_tools.UsageError(
            "--hold-at-boot %s: name a button (%s) or a key (%s), optionally :MS"
            % (text, " ".join(BUTTON_NAMES), " ".join(BUTTONS))
        )
    if ms and not (ms.isdigit() and len(ms) <= 8 and int(ms) <= sim_keys.MAX_MS):
        raise host_tools.UsageError(
            "--hold-at-boot %s: MS must be a whole number of milliseconds up to %d" % (text, sim_keys.MAX_MS)
        )
    return 1 << button, int(ms) if ms else HOLD_AT_BOOT_MS


def parse_args(argv):
    p = host_tools.argument_parser("sim", __doc__.splitlines()[0])
    p.add_argument("--board", default="sim", help="only 'sim' runs on the desktop")
    p.add_argument("--oled", choices=("ssd1306", "sh1106"), default="ssd1306")
    p.add_argument("--dice", choices=("max7219", "neopixel"), default="max7219")
    p.add_argument(
        "--seed",
        type=int,
        help="reproducible dice; any whole number, wrapping at 2^32 (default: stirred like the device)",
    )
    p.add_argument("--flash-dir", default=DEFAULT_FLASH, help="the device's filesystem (default %(default)s)")
    p.add_argument("--code-dir", help="a flashed tree to boot instead of firmware/ + boards/")
    p.add_argument(
        "--heap",
        default=DEVICE_HEAP,
        help="MicroPython heap (-X heapsize=): bytes, or with K or M (default %(default)s: the Pico's)",
    )
    p.add_argument(
        "--battery",
        metavar="MV[:TO:MS]",
        help="simulate VSYS: MV millivolts, or falling from MV to TO over MS virtual ms",
    )
    p.add_argument(
        "--no-table", action="store_true", help="no strategy table on the device (simple computer players, no hints)"
    )
    p.add_argument(
        "--hold-at-boot",
        metavar="BUTTON[:MS]",
        help="hold a button from power-on for MS ms (default %d), e.g. ROLL: safe mode" % HOLD_AT_BOOT_MS,
    )
    p.add_argument(
        "--busy-time",
        action="store_true",
        help="work costs virtual time (the chip's speed, calibrated: host_tools/simulator/busy.py)"
        " and presses arrive during it",
    )
    p.add_argument(
        "--lang",
        help="the language of this run, over the one the menu kept (%s)" % ", ".join(texts.codes()),
    )
    p.add_argument(
        "--challenge",
        metavar="CODE",
        help="games started in the menu roll the dice of this challenge code (four letters)",
    )
    p.add_argument("--headless", action="store_true")
    p.add_argument("--keys", default="", help="headless key script")
    p.add_argument("--screenshot", help="headless: write a PNG of the device here")
    p.add_argument("--print-screen", action="store_true", help="headless: print dice and OLED as text")
    p.add_argument("--regen-golden", action="store_true", help="rewrite tests/sim/golden/ and exit")
    p.add_argument("--regen-images", action="store_true", help="rewrite docs/img/ and exit")
    args = p.parse_args(argv)
    if args.hold_at_boot == "":
        raise host_tools.UsageError("--hold-at-boot is empty: name a button, e.g. ROLL or ROLL:3000")
    args.hold = hold_at_boot(args.hold_at_boot) if args.hold_at_boot is not None else (0, 0)
    if args.board != "sim":
        raise host_tools.UsageError("--board %s: only the 'sim' board runs in the simulator" % args.board)
    if args.battery is not None:
        parts = args.battery.split(":")
        if (
            len(parts) not in (1, 3)
            or not all(part.isdigit() and len(part) <= 8 for part in parts)
            or not all(int(mv) <= MAX_BATTERY_MV for mv in parts[:2])
            or (len(parts) == 3 and not 0 < int(parts[2]) <= sim_keys.MAX_MS)
        ):
            raise host_tools.UsageError(
                "--battery %s: use MV or FROM:TO:MS (whole numbers, MV up to %d,"
                " MS from 1 to %d)" % (args.battery, MAX_BATTERY_MV, sim_keys.MAX_MS)
            )
    if args.challenge is not None:
        host_tools.use_firmware()
        import game
        import game_challenge

        args.challenge = args.challenge.upper()
        try:
            game_challenge.code_number(args.challenge)
        except game.GameError:
            raise host_tools.UsageError(
                "--challenge %r: a challenge code is four letters A-Z" % args.challenge[:20]
            ) from None
    if not HEAP.match(args.heap) or not MIN_HEAP <= heap_bytes(args.heap) <= MAX_HEAP:
        raise host_tools.UsageError(
            "--heap %s: use bytes or a size with K or M, from 64K to 64M (e.g. 256K)" % args.heap
        )
    if not args.headless:
        for option, value in (
            ("--keys", args.keys),
            ("--screenshot", args.screenshot),
            ("--print-screen", args.print_screen),
        ):
            if value:  # else the interactive simulator would start and ignore it
                raise host_tools.UsageError("%s goes with --headless" % option)
    check_folders(args)
    if args.screenshot is not None:
        host_tools.check_output_file("--screenshot", args.screenshot)
    return args


MAX_BATTERY_MV = 6000  # VSYS is at most 5.5 V
HEAP = re.compile(r"^[0-9]{1,9}[KkMm]?$")
MIN_HEAP = 64 * 1024  # below this the firmware cannot even boot
MAX_HEAP = 64 * 1024 * 1024


def heap_bytes(text):
    scale = {"k": 1024, "m": 1024 * 1024}.get(text[-1].lower(), 1)
    return int(text.rstrip("KkMm")) * scale


def check_folders(args):
    """--flash-dir must be a folder the firmware can write (made if missing); --code-dir
    a folder holding main.py. Also: the simulator changes nothing inside --code-dir."""
    flash = args.flash_dir
    if flash == "":
        raise host_tools.UsageError("--flash-dir is empty: name a folder (default %s)" % DEFAULT_FLASH)
    if os.path.exists(flash) and not os.path.isdir(flash):
        raise host_tools.UsageError("--flash-dir %s is a file, not a folder" % flash)
    if host_tools.name_too_long(flash):
        raise host_tools.UsageError("--flash-dir %s...: the name is too long for the filesystem" % flash[:60])
    if not os.path.exists(flash):
        parent = os.path.dirname(os.path.abspath(flash))
        while not os.path.exists(parent):
            parent = os.path.dirname(parent)
        if not os.path.isdir(parent) or not host_tools.writable_folder(parent):
            raise host_tools.UsageError("--flash-dir %s cannot be made (%s is not a writable folder)" % (flash, parent))
    elif not host_tools.writable_folder(flash):
        raise host_tools.UsageError("--flash-dir %s is not writable (the device saves there)" % flash)
    args.flash_in_code = False
    if args.code_dir is None:
        real_tree = os.path.realpath(device_tree.FOLDER)
        if (os.path.realpath(flash) + os.sep).startswith(real_tree + os.sep):
            raise host_tools.UsageError(
                "--flash-dir %s is inside %s, which the simulator rewrites at every start:"
                " use another folder" % (flash, device_tree.FOLDER)
            )
    else:
        code = args.code_dir
        if code == "" or not os.path.isdir(code):
            raise host_tools.UsageError("--code-dir %r is not a folder" % code)
        if not os.path.isfile(os.path.join(code, "main.py")):
            raise host_tools.UsageError("--code-dir %s holds no main.py (a flashed tree has one)" % code)
        real_code = os.path.realpath(code)
        real_flash = os.path.realpath(flash)
        args.flash_in_code = real_flash == real_code or real_flash.startswith(real_code + os.sep)
        if args.flash_in_code and args.no_table:
            raise host_tools.UsageError(
                "--no-table would delete tables in --code-dir %s: use another --flash-dir" % code
            )
    if args.no_table and os.path.isdir(flash) and own_tables(flash):
        raise host_tools.UsageError(
            "--no-table: %s is the device's own table in %s, not a link the simulator"
            " made: move it away or use another --flash-dir" % (own_tables(flash)[0], flash)
        )


def busy_ratio():
    from host_tools.simulator import busy

    return busy.ratio()


def main(argv):
    try:
        args = parse_args(argv)
        if args.headless:
            sim_keys.parse(args.keys)  # reject a bad script before starting anything
        if args.lang is not None:
            texts.use(args.lang)  # a language the firmware has (the dice line speaks it too)
    except (host_tools.UsageError, sim_keys.KeyScriptError) as exc:
        print("sim: %s" % exc, file=sys.stderr)
        return 2
    if args.regen_golden:
        from host_tools.simulator import golden as sim_golden

        sim_golden.regen()
        return 0
    if args.regen_images:
        from host_tools.simulator import golden as sim_golden

        sim_golden.regen_images()
        return 0
    try:
        os.makedirs(args.flash_dir, exist_ok=True)
    except OSError as exc:
        print("sim: --flash-dir %s: %s" % (args.flash_dir, exc.strerror), file=sys.stderr)
        return 2
    builder = None
    if args.no_table:
        remove_tables(args.flash_dir)
        tables = None
    elif args.flash_in_code:
        tables = None  # the flashed tree's own tables, as they are
    elif not args.headless and sim_tables.missing():
        # The game at once; the tables built meanwhile, linked in when they are there.
        tables = sim_tables.ready()
        flash = args.flash_dir
        builder = sim_tables.TableBuilder(on_ready=lambda found: link_tables(flash, found))
    else:
        tables = device_tables()
    try:  # the device's own code: what flash puts on a Pico (device_tree.py)
        code_dir = args.code_dir or device_tree.sync()
    except BuildError as exc:
        print("sim: %s" % exc, file=sys.stderr)
        if builder is not None:
            builder.close()
        return 1
    device = SimDevice(
        seed=args.seed,
        flash_dir=args.flash_dir,
        code_dir=code_dir,
        heap=args.heap,
        oled=args.oled,
        dice=args.dice,
        extra=(("battery=" + args.battery,) if args.battery else ())
        + (("lang_now=" + args.lang,) if args.lang else ())
        + (("challenge=" + args.challenge,) if args.challenge else ()),
        tables=tables,
        hold_at_boot=args.hold,
        busy=busy_ratio() if args.busy_time else None,
    )
    if not args.headless:
        from host_tools.simulator import term as sim_term

        try:
            return sim_term.play(device, builder.status if builder is not None else None)
        finally:
            if builder is not None:
                builder.close()
    status = 0
    try:
        run_headless(device, args.keys)
    except DeviceExited:
        status = 1
    finally:
        device.close()
    if status:
        print("sim: the firmware stopped:\n" + "\n".join(device.console[-20:]), file=sys.stderr)
    if args.print_screen:
        from host_tools.simulator.screen import device_text

        print(device_text(device))
    if args.screenshot:
        from host_tools.simulator.png import write_png

        write_png(args.screenshot, device)
    return status
