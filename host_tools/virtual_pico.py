"""A virtual Pico: the MicroPython unix port served on a pseudo-terminal, like a board.

``python -m host_tools virtual-pico --dir DIR`` prints the port path (a pty slave) on its
first output line once the interpreter is up, then serves until SIGINT/SIGTERM. Any
failure goes to stderr with a non-zero exit (2: bad options), never to stdout, so a
script reading the first line never takes an error for a port. mpremote and ``host_tools flash
--port PATH`` talk to it exactly as to a Pico on USB.

How it emulates a board (flash, reset, boot, the test modes): host_tools/flashing/virtual_pico.py.
"""

import argparse
import os
import signal
import sys
import tempfile

import host_tools
from host_tools.flashing import untrusted, virtual_pico

MIN_FLASH, MAX_FLASH = 4 * virtual_pico.FLASH_BLOCK, 16 * 1024 * 1024  # 16 MiB: the largest rp2 flash


def _parse_version(text):
    parts = text.split(".")
    if len(parts) != 3 or not all(p.isdigit() and len(p) <= 3 and int(p) <= 255 for p in parts):
        raise argparse.ArgumentTypeError("version must look like 1.22.2 (three numbers 0-255)")
    return tuple(int(p) for p in parts)


def _parse_mpy(text):
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number such as 0x206 or 6") from None
    if not 0 <= value <= 0xFFFF:
        raise argparse.ArgumentTypeError("must be 0..0xffff (sys.implementation._mpy)")
    return value


def _parse_flash_size(text):
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a number of bytes") from None
    if not MIN_FLASH <= value <= MAX_FLASH:
        raise argparse.ArgumentTypeError("must be %d..%d bytes" % (MIN_FLASH, MAX_FLASH))
    return value


def parse_args(argv):
    parser = host_tools.argument_parser("virtual-pico", __doc__.splitlines()[0])
    parser.add_argument(
        "--dir", required=True, help="folder that plays the Pico's flash filesystem (made when missing)"
    )
    parser.add_argument("--fake-mpy", type=_parse_mpy, help="value reported as sys.implementation._mpy, e.g. 0x206")
    parser.add_argument(
        "--fake-version", type=_parse_version, help="version reported by sys.implementation, e.g. 1.22.2"
    )
    parser.add_argument(
        "--flash-size",
        type=_parse_flash_size,
        help="filesystem size in bytes reported by os.statvfs (%d..%d)" % (MIN_FLASH, MAX_FLASH),
    )
    parser.add_argument("--not-micropython", action="store_true", help="serve a CPython REPL instead (no raw REPL)")
    return parser.parse_args(argv)


def check_dir(folder):
    """Makes ``folder`` when missing; one line naming the problem, or None."""
    problem = untrusted.folder_problem("--dir", folder)  # MicroPython needs a UTF-8 path
    if problem:
        return problem
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError as exc:
        return "--dir %s cannot be made: %s" % (untrusted.shown(folder), exc.strerror or exc)
    return None


def main(argv):
    args, status = host_tools.parse_command("virtual-pico", parse_args, argv)
    if args is None:
        return status
    problem = check_dir(args.dir)
    if problem:
        print("virtual-pico: %s" % problem, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="virtual-pico-") as workdir:
        command = virtual_pico.interpreter_command(
            args.dir, workdir, args.fake_mpy, args.fake_version, args.flash_size, args.not_micropython
        )
        pico = virtual_pico.VirtualPico(command, env=virtual_pico.interpreter_env())
        previous = [(sig, signal.signal(sig, pico.stop)) for sig in (signal.SIGINT, signal.SIGTERM)]
        pico.on_ready = lambda p: print(p.port, flush=True)  # only a working port is printed
        if args.not_micropython:
            pico.on_ready(pico)  # CPython's prompt is not watched for
            pico.on_ready = None
        try:
            pico.serve()
        finally:
            pico.close()
            for sig, handler in previous:
                signal.signal(sig, handler)
    if pico.failed:
        print("virtual-pico: %s" % pico.failed, file=sys.stderr)
        return 1
    return 0
