"""The device commands (pull, flash, virtual-pico) x every kind of bad value: exit 2,
exactly one line on stderr, nothing on stdout, no traceback, nothing written (issue 10).

Same shape as tests/test_cli_bad_input.py (the other commands), so the two tables fold
into one: ``TABLE`` is ``{command: {kind: rows}}``, a row is an argument list whose
``{placeholders}`` ``Paths`` fills, and ``NOT_APPLICABLE("why")`` stands where a command
has no option of that kind. Every command must name every kind in ``KINDS``.
"""
import collections
import os
import subprocess
import sys

import pytest

import host_tools
from host_tools.flashing import untrusted

KINDS = ("empty", "missing file", "folder instead of file", "unwritable", "huge number", "non-UTF-8",
         "unknown option")
HUGE = "99999999999999999999"
NOT_APPLICABLE = collections.namedtuple("NOT_APPLICABLE", "why")

# {command: {kind: [argument list, ...] or NOT_APPLICABLE(why)}}. Rows that test one option
# name a valid value for the others, so only that option can be the reason for exit 2.
TABLE = {
    "pull": {
        "empty": [["--dir", ""], ["--port", ""], ["--dir", "{folder}", "--out", ""]],
        "missing file": [["--dir", "{missing}"], ["--dir", "{folder}", "--out", "{file}/under/a/file"]],
        "folder instead of file": [["--port", "{folder}"], ["--dir", "{file}"], ["--dir", "{folder}", "--out", "{file}"]],
        "unwritable": [["--dir", "{folder}", "--out", "{unwritable}"], ["--dir", "{folder}", "--out", "{unwritable}/copy"],
                       ["--dir", "{root}", "--out", "{folder}/copy"]],  # the copy inside the folder it copies
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [["--dir", b"{folder}/\xff"], ["--port", b"/dev/tty\xff"]],
        "unknown option": [["--frobnicate"], ["--dir", "{folder}", "extra"], ["--dir", "{folder}", "--port", "/dev/x"]],
    },
    "flash": {
        "empty": [["--port", ""], ["--board", ""], ["--source", ""], ["--mpy-cross", ""], ["--rules", ""]],
        "missing file": [["--source", "{missing}"], ["--mpy-cross", "{missing}"]],
        "folder instead of file": [["--port", "{folder}"], ["--mpy-cross", "{folder}"], ["--source", "{file}"]],
        "unwritable": NOT_APPLICABLE("writes only to the device"),
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [["--port", b"/dev/tty\xff"], ["--board", b"pico\xff"], ["--source", b"{folder}/\xff"]],
        "unknown option": [["--frobnicate"], ["--rules", "lenient"], ["extra"], ["--repl", "--dev"]],
    },
    "virtual-pico": {
        "empty": [["--dir", ""], ["--dir", "{folder}", "--flash-size", ""], ["--dir", "{folder}", "--fake-version", ""],
                  ["--dir", "{folder}", "--fake-mpy", ""]],
        "missing file": NOT_APPLICABLE("--dir is made when missing, the one path it takes"),
        "folder instead of file": [["--dir", "{file}"], ["--dir", "{file}/flash"]],
        "unwritable": [["--dir", "{unwritable}/flash"]],
        "huge number": [["--dir", "{folder}", "--flash-size", HUGE], ["--dir", "{folder}", "--flash-size", "-5"],
                        ["--dir", "{folder}", "--flash-size", "0"], ["--dir", "{folder}", "--fake-version", "1.999999999.0"],
                        ["--dir", "{folder}", "--fake-version", "1.-2.3"], ["--dir", "{folder}", "--fake-mpy", HUGE]],
        "non-UTF-8": [["--dir", b"{root}/\xff"], ["--dir", "{folder}", "--fake-version", b"1.\xff.0"]],
        "unknown option": [["--frobnicate"], ["--dir", "{folder}", "extra"], ["--dir"]],
    },
}


class Paths:
    """The files and folders the placeholders name, made once for the module."""

    def __init__(self, root):
        self.root = root
        self.folder = os.path.join(root, "folder")
        os.makedirs(os.path.join(self.folder, "data"))
        self.file = os.path.join(root, "file.txt")
        with open(self.file, "w") as f:
            f.write("a plain file\n")
        self.missing = os.path.join(root, "no-such-thing")
        self.unwritable = unwritable_folder(root)

    def fill(self, args):
        out = []
        for arg in args:
            for name in PLACEHOLDERS:
                if isinstance(arg, str):
                    arg = arg.replace("{%s}" % name, getattr(self, name))
                else:  # bytes: an argument that is not UTF-8
                    arg = arg.replace(b"{%s}" % name.encode(), os.fsencode(getattr(self, name)))
            out.append(arg)
        return out


PLACEHOLDERS = ("folder", "file", "missing", "unwritable", "root")


def unwritable_folder(root):
    """A folder no file can be made in: a read-only one, or for root (whom permission bits
    do not stop) /sys, where the kernel refuses new files."""
    folder = os.path.join(root, "read-only")
    os.makedirs(folder)
    os.chmod(folder, 0o555)
    if not untrusted.can_create_in(folder):
        return folder
    if os.path.isdir("/sys") and not untrusted.can_create_in("/sys"):
        return "/sys"
    pytest.fail("cannot make an unwritable folder on this machine")


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input-device")
    yield Paths(str(root))
    os.chmod(os.path.join(str(root), "read-only"), 0o755)


def rows():
    for command, kinds in TABLE.items():
        for kind, cases in kinds.items():
            if isinstance(cases, NOT_APPLICABLE):
                continue
            for i, args in enumerate(cases):
                yield pytest.param(command, args, id="%s-%s-%d" % (command, kind.replace(" ", "_"), i))


def tree(folder):
    found = set()
    for top, dirs, files in os.walk(folder):
        for name in dirs + files:
            found.add(os.path.relpath(os.path.join(top, name), folder))
    return found


@pytest.mark.parametrize("command, args", list(rows()))
def test_bad_value_is_exit_2_and_one_line(paths, command, args):
    cmd = [sys.executable, "-m", "host_tools", command] + paths.fill(args)
    before = tree(paths.root)
    proc = subprocess.run(cmd, capture_output=True, cwd=host_tools.REPO, timeout=60)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, stderr
    assert proc.stdout == b""
    assert stderr.count("\n") == 1 and stderr.endswith("\n"), stderr  # one line, no traceback
    assert stderr.startswith(command + ": "), stderr
    assert all(ch.isprintable() for ch in stderr[:-1]), stderr  # escaped: nothing a terminal acts on
    assert tree(paths.root) == before  # nothing made or left behind


def test_every_command_covers_every_kind():
    for command, kinds in TABLE.items():
        assert tuple(kinds) == KINDS, command
        for kind, cases in kinds.items():
            assert isinstance(cases, NOT_APPLICABLE) or cases, (command, kind)
