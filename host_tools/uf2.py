"""``make uf2``: one .uf2 file with MicroPython, the game and its strategy table.

``python -m host_tools uf2 [--firmware UF2] [--board pico] [--rules forced] [--compact]
--out FILE``: takes the official MicroPython UF2 of the board (default: the one .uf2 in
build/micropython/), adds a littlefs2 image of the files ``make flash`` would put on the
Pico (compiled firmware, main.py, device.cfg, strategy table, flash manifest) at the
filesystem offset of that MicroPython build, and writes one UF2 to drag onto the
BOOTSEL drive. A ``make flash`` afterwards copies nothing. Installing it replaces the
Pico's whole filesystem, records and saved game included: ``pull`` them before and
``push`` them back after.
"""

import sys

import host_tools
from host_tools import UsageError
from host_tools.flashing import bundle, fs_image
from host_tools.flashing.build import BuildError

RECORDS_NOTE = (
    "uf2: installing %s REPLACES everything on the Pico, its records and saved game too; "
    "to keep them: python -m host_tools pull --port PORT before, python -m host_tools push --port PORT after"
)


def parse_args(argv):
    parser = host_tools.argument_parser("uf2", __doc__.splitlines()[0])
    parser.add_argument("--firmware", help="MicroPython .uf2 of the board (default: the one in build/micropython/)")
    parser.add_argument(
        "--board", default="pico", help="module in boards/ (default pico; pico2 with the RPI_PICO2 firmware)"
    )
    host_tools.use_firmware()
    import rules  # the firmware's own list of joker options

    parser.add_argument(
        "--rules",
        default="forced",
        choices=rules.CHOICES,
        help="default rules: a joker option or zoo (device.cfg) and table",
    )
    parser.add_argument(
        "--compact",
        action="store_true",
        help="use the compact strategy table (needed on a Pico W), building it if needed",
    )
    parser.add_argument("--source", help="folder holding firmware/, boards/ and build/ (default: this checkout)")
    parser.add_argument(
        "--lang",
        help="the languages besides English, comma-separated, the first the device's own (default: every one)",
    )
    parser.add_argument("--out", required=True, help="the .uf2 file to write")
    args = parser.parse_args(argv)
    for option, value in (("--firmware", args.firmware), ("--source", args.source)):
        if value == "":
            raise UsageError("%s is empty: name a %s" % (option, "file" if option == "--firmware" else "folder"))
        if value is not None and not host_tools.is_utf8(value):
            raise UsageError("%s %s: the name is not UTF-8" % (option, value))
    return args


def main(argv):
    args, status = host_tools.parse_command("uf2", parse_args, argv)
    if args is None:
        return status
    from host_tools.flashing import build as flash_build

    source = args.source or flash_build.default_source()
    langs = None if args.lang is None else tuple(code.strip() for code in args.lang.split(","))
    problem = langs is not None and not flash_build.source_problem(source) and flash_build.langs_problem(source, langs)
    if problem:
        print("uf2: %s" % problem, file=sys.stderr)
        return 2
    try:
        made = bundle.make(
            source,
            args.firmware,
            args.board,
            args.rules,
            args.compact,
            args.out,
            say=lambda text: print(text, flush=True),
            langs=langs,
        )
    except bundle.BundleError as exc:
        print("uf2: %s" % exc, file=sys.stderr)
        return 2
    except (BuildError, fs_image.ImageError) as exc:
        print("uf2: %s" % exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("uf2: interrupted; %s was not written" % args.out, file=sys.stderr)
        return 130
    layout = made.layout
    print(
        "uf2: %d files for board=%s, rules=%s; strategy table %s (%s, %d KiB)"
        % (
            len(made.files),
            args.board,
            args.rules,
            flash_build.table_file(args.rules, args.compact),
            made.variant,
            len(made.table.data) // 1024,
        )
    )
    print(
        "uf2: littlefs2 at 0x%08X-0x%08X (%d KiB, %d blocks of 4096; %d KiB used, %d KiB free), mounted and checked as the rp2 port does"
        % (
            layout.fs_start,
            layout.fs_end,
            layout.fs_bytes // 1024,
            layout.block_count,
            (layout.fs_bytes - made.free) // 1024,
            made.free // 1024,
        )
    )
    print("uf2: wrote %s: %d bytes, %d UF2 blocks, in %.1f s" % (args.out, made.size, made.blocks, made.seconds))
    from host_tools import flash as flash_command
    from host_tools.flashing import uf2 as uf2_format

    version = uf2_format.parse_version(made.firmware.version)
    note = flash_command.lightsleep_note(version, "uf2") if version is not None else None
    if note:
        print(note)
    print(RECORDS_NOTE % args.out)
    return 0
