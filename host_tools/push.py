"""``python -m host_tools push``: put the records and saved game that ``pull`` copied back on the device.

``python -m host_tools push --port PORT [--from FOLDER]`` makes the device's ``data/``
exactly the copy in ``FOLDER/data`` (default ``device-data``, where ``pull`` puts it):
changed files are copied, files the copy does not have are removed, then the device
resets and the game boots with them. For after installing the one-file UF2
(``make uf2``), which replaces the whole filesystem. Uses the flash tool's port logic.
"""
import sys

import host_tools
from host_tools.flashing import restore
from host_tools.flashing.device import DeviceError


def parse_args(argv):
    parser = host_tools.argument_parser("push", __doc__.splitlines()[0])
    parser.add_argument("--port", required=True, help="serial port of the device (or the virtual Pico's pty)")
    parser.add_argument("--from", dest="folder", default="device-data", help="the copy pull made (default: device-data)")
    return parser.parse_args(argv)


def main(argv):
    args, status = host_tools.parse_command("push", parse_args, argv)
    if args is None:
        return status
    from host_tools.flashing import untrusted

    problem = untrusted.port_problem(args.port) or untrusted.text_problem("--from", args.folder)
    if problem:
        print("push: %s" % problem, file=sys.stderr)
        return 2
    try:
        files = restore.local_files(args.folder)
    except restore.BadCopy as exc:
        print("push: %s" % exc, file=sys.stderr)
        return 2
    from host_tools import flash

    try:
        copied, same, removed = restore.push(args.port, files, flash.check_identity)
    except (restore.PushError, DeviceError, flash.FlashError) as exc:
        print("push: %s" % exc, file=sys.stderr)
        return 1
    print("push: done on %s: data/ now holds the %d files of %s (%d copied, %d already there, %d removed); the game restarts with them" % (args.port, len(files), args.folder, copied, same, removed))
    return 0
