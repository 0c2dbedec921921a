"""``python -m host_tools push``: put the records and saved game that ``pull`` copied back on the device.

``python -m host_tools push --port PORT [--from FOLDER]`` makes the device's ``data/``
exactly the copy in ``FOLDER/data`` (default: where ``pull`` puts it,
``~/.local/share/pico-yahtzee/pulled``), then the device resets and the game boots with
it. For after installing the one-file UF2 (``make uf2``), which replaces the whole
filesystem. The copy is checked first (``flashing/restore.py``: regular files, pull's
limits and name rule, each save intact with a shape the firmware accepts): anything
else is refused with one line and the device is not touched. The switch is whole-folder:
a power cut leaves the old ``data/`` or the new one. Uses the flash tool's port logic.
"""

import os
import sys

import host_tools
from host_tools import pull
from host_tools.flashing import restore, untrusted
from host_tools.flashing.device import DeviceError

SHOWN_DEFAULT = pull.DEFAULT_OUT.replace(os.path.expanduser("~"), "~")


def parse_args(argv):
    parser = host_tools.argument_parser("push", __doc__.splitlines()[0])
    parser.add_argument("--port", required=True, help="serial port of the device (or the virtual Pico's pty)")
    parser.add_argument(
        "--from",
        dest="folder",
        default=pull.DEFAULT_OUT,
        help="the copy pull made (default: %s, pull's default --out)" % SHOWN_DEFAULT,
    )
    return parser.parse_args(argv)


def no_copy_hint(folder):
    """The end of the message for a folder without a copy: how the copy is made."""
    if os.path.abspath(folder) == os.path.abspath(pull.DEFAULT_OUT):
        return "push puts back what python -m host_tools pull --port PORT copied from the device before the install (--from DIR if that pull had --out DIR)"
    return (
        "push puts back what python -m host_tools pull --port PORT --out %s copied from the device before the install"
        % untrusted.shown(folder)
    )


def main(argv):
    args, status = host_tools.parse_command("push", parse_args, argv, show=untrusted.printable)
    if args is None:
        return status
    problem = untrusted.port_problem(args.port) or untrusted.text_problem("--from", args.folder)
    if problem:
        print("push: %s" % problem, file=sys.stderr)
        return 2
    try:
        files, left_out = restore.local_files(args.folder, no_copy_hint(args.folder))
    except restore.BadCopy as exc:
        print("push: %s" % exc, file=sys.stderr)
        return 2
    for name, why in left_out:
        print("push: left out %s: %s" % (untrusted.printable(name), why), file=sys.stderr)
    from host_tools import flash

    try:
        changed, same, removed = restore.push(args.port, files, flash.check_identity)
    except (restore.PushError, DeviceError, flash.FlashError) as exc:
        print("push: %s" % untrusted.printable(str(exc)), file=sys.stderr)
        return 1
    print(
        "push: done on %s: data/ now holds the %d files of %s (%d changed, %d already there, %d removed); the game restarts with them"
        % (untrusted.shown(args.port), len(files), untrusted.shown(args.folder), changed, same, removed)
    )
    return 0
