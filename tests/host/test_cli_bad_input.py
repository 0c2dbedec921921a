"""Every command x every kind of bad value: exit 2, exactly one line on stderr, nothing on
stdout, no traceback, and nothing written.

``TABLE`` is the whole test: ``{command: {kind: rows}}``, where a row is the argument
list (placeholders in braces are filled by ``Paths``, see ``PLACEHOLDERS``) and ``rows``
may instead be ``NOT_APPLICABLE("why")`` when the command has no option of that kind.
Every command in ``COMMANDS`` must name every kind in ``KINDS``
(``test_every_command_covers_every_kind``), so a new command or option is added here
by adding its rows: for example ``"pull": {"empty": [["--out", ""]], ...}``.
"""

import collections
import os
import struct
import subprocess
import sys

import pytest

import host_tools
from helpers.checkout import fresh_checkout

host_tools.use_firmware()
import save_store  # noqa: E402  (the firmware's own save frame, for a copy push accepts)

pytestmark = pytest.mark.slow

KINDS = (
    "empty",
    "missing file",
    "folder instead of file",
    "unwritable",
    "huge number",
    "non-UTF-8",
    "unknown option",
    "FIFO",
    "link",
    "oversized",
    "duplicate keys",
    "same output twice",
)
HUGE = "99999999999999999999"
NOT_APPLICABLE = collections.namedtuple("NOT_APPLICABLE", "why")
DICE = ["1", "2", "3", "4", "5"]
DUPLICATE = '{"chance": 20, "chance": 25}'  # json keeps the last silently
LONG = "x" * 300  # longer than a file name may be (255 bytes)
NO_FILE = NOT_APPLICABLE("takes no file")
NO_JSON = NOT_APPLICABLE("reads no JSON")
ONE_OUTPUT = NOT_APPLICABLE("writes at most one file")

# {command: {kind: [argument list, ...] or NOT_APPLICABLE(why)}}
TABLE = {
    "host_tools": {  # the dispatcher itself: its "options" are the command name
        "empty": [[""]],
        "missing file": NOT_APPLICABLE("takes no file"),
        "folder instead of file": NOT_APPLICABLE("takes no file"),
        "unwritable": NOT_APPLICABLE("writes nothing"),
        "huge number": [[HUGE]],
        "non-UTF-8": [[b"\xff\xfe"]],
        "unknown option": [["--frobnicate"], ["frobnicate"]],
        "FIFO": NO_FILE,
        "link": NO_FILE,
        "oversized": NO_FILE,
        "duplicate keys": NO_JSON,
        "same output twice": ONE_OUTPUT,
    },
    "score": {
        "empty": [
            ["--card", ""] + DICE,
            [""] * 5,
            ["--rules", ""] + DICE,
            ["--rules", "zoo", "--card", ""] + DICE,
            ["--lang", ""] + DICE,
        ],
        "missing file": [["--card", "{missing}"] + DICE],
        "folder instead of file": [["--card", "{folder}"] + DICE],
        "unwritable": NOT_APPLICABLE("writes nothing"),
        "huge number": [
            [HUGE, "1", "1", "1", "1"],
            ["--card", '{"chance": %s}' % HUGE] + DICE,
            ["--card", "{zeros}"] + DICE,
            ["--card", "{deep}"] + DICE,
            ["--card", "{deep_text}"] + DICE,
            ["--rules", "zoo", HUGE, "1", "1", "1", "1"],
            ["--rules", "zoo", "--card", '{"monkey": %s}' % HUGE] + DICE,
        ],
        "non-UTF-8": [
            ["--card", "{non_utf8}"] + DICE,
            [b"\xff", "1", "1", "1", "1"],
            ["--card", b"{\"\xff\": 1}"] + DICE,
            ["--rules", "zoo", "--card", "{non_utf8}"] + DICE,
        ],
        "unknown option": [
            ["--frobnicate"] + DICE,
            ["--json=yes"] + DICE,
            ["--rules", "zoo", "--frobnicate"] + DICE,
            ["--rules", "zoo", "--no-yahtzee-bonus"] + DICE,  # the Zoo card has no bonus
            ["--lang", "fr"] + DICE,  # a language the firmware lacks
            ["--lang", "../en"] + DICE,
        ],
        "FIFO": [["--card", "{fifo}"] + DICE, ["--rules", "zoo", "--card", "{fifo}"] + DICE],
        "link": [["--card", "{zero_link}"] + DICE, ["--card", "{fifo_link}"] + DICE, ["--card", "{dir_link}"] + DICE],
        "oversized": [["--card", "{big}"] + DICE],
        "duplicate keys": [
            ["--card", DUPLICATE] + DICE,
            ["--card", "{duplicate}"] + DICE,
            ["--rules", "zoo", "--card", '{"monkey": 0, "monkey": 0}'] + DICE,
        ],
        "same output twice": NOT_APPLICABLE("writes nothing"),
    },
    "advise": {
        "empty": [
            ["--table", ""],
            ["--card", ""],
            ["--dice"] + DICE + ["--rolls-left", ""],
            ["--rules", "zoo", "--table", ""],
            ["--opponents", ""],
            ["--spread", "", "--opponents", "{}"],
            ["--to-win"],
        ],
        "missing file": [
            ["--table", "{missing}"],
            ["--card", "{missing}"],
            ["--rules", "zoo", "--table", "{missing}"],
            ["--opponents", "{missing}"],
            ["--spread", "{missing}", "--opponents", "{}"],
        ],
        "folder instead of file": [
            ["--table", "{folder}"],
            ["--card", "{folder}"],
            ["--rules", "zoo", "--card", "{folder}"],
            ["--opponents", "{folder}"],
            ["--spread", "{folder}", "--opponents", "{}", "--to-win"],
        ],
        "unwritable": NOT_APPLICABLE("writes nothing (its table is checked by --table rows)"),
        "huge number": [
            ["--dice"] + DICE + ["--rolls-left", HUGE],
            ["--dice", HUGE, "1", "1", "1", "1", "--rolls-left", "1"],
            ["--card", "{zeros}"],
            ["--card", "{deep}"],
            ["--table", "{zeros}"],
            ["--rules", "zoo", "--dice", HUGE, "1", "1", "1", "1", "--rolls-left", "1"],
            ["--rules", "zoo", "--table", "{zeros}"],
            ["--opponents", '{"chance": %s}' % HUGE],
            ["--opponents", "{}", "{}", "{}", "{}"],
            ["--spread", "{zeros}", "--opponents", "{}"],
        ],
        "non-UTF-8": [
            ["--card", "{non_utf8}"],
            ["--table", "{non_utf8}"],
            ["--rolls-left", b"\xff", "--dice"] + DICE,
            ["--rules", "zoo", "--card", "{non_utf8}"],
            ["--opponents", "{non_utf8}"],
            ["--spread", "{non_utf8}", "--opponents", "{}"],
        ],
        "unknown option": [
            ["--frobnicate"],
            ["--opponents"],
            ["--to-win=yes", "--opponents", "{}"],
            ["--rules", "zoo", "--opponents", "{}"],  # no win meter for the Zoo card
            ["--lang", "fr"],
        ],
        "FIFO": [
            ["--card", "{fifo}"],
            ["--opponents", "{fifo}"],
            ["--table", "{fifo}"],
            ["--spread", "{fifo}", "--opponents", "{}"],
        ],
        "link": [
            ["--table", "{zero_link}"],
            ["--card", "{fifo_link}"],
            ["--spread", "{dir_link}", "--opponents", "{}"],
            ["--opponents", "{zero_link}"],
        ],
        "oversized": [
            ["--table", "{big}"],
            ["--card", "{big}"],
            ["--spread", "{big}", "--opponents", "{}"],
            ["--opponents", "{big}"],
        ],
        "duplicate keys": [["--card", DUPLICATE], ["--opponents", "{duplicate}"], ["--opponents", "{}", DUPLICATE]],
        "same output twice": NOT_APPLICABLE("writes nothing"),
    },
    "challenge": {
        "empty": [[""], ["KQZX", "--table", ""], ["KQZX", "--rules", ""], ["KQZX", "--lang", ""]],
        "missing file": [["KQZX", "--table", "{missing}"]],
        "folder instead of file": [["KQZX", "--table", "{folder}"]],
        "unwritable": NOT_APPLICABLE("writes nothing"),
        "huge number": [[HUGE], ["KQZX", "--table", "{zeros}"], ["KQZX", "--rules", "zoo", "--table", "{zeros}"]],
        "non-UTF-8": [[b"\xff\xfe\xfd\xfc"], ["KQZX", "--table", "{non_utf8}"]],
        "unknown option": [
            ["--frobnicate"],
            ["KQZ"],
            ["KQZXA"],
            ["KQZ1"],
            ["KQZX", "ABCD"],
            ["KQZX", "--lang", "fr"],
            ["KQZX", "--rules", "zoo", "--no-yahtzee-bonus"],
        ],
        "FIFO": [["KQZX", "--table", "{fifo}"]],
        "link": [["KQZX", "--table", "{zero_link}"], ["KQZX", "--table", "{dir_link}"]],
        "oversized": [["KQZX", "--table", "{big}"]],
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("writes nothing"),
    },
    "solve": {
        "empty": [
            ["--out", ""],
            ["--rules", "", "--out", "{new_file}"],
            ["--rules", "zoo", "--out", ""],
            ["--out", "{new_file}", "--spread", ""],
            ["--compact", "--bits", "", "--out", "{new_file}"],
        ],
        "missing file": [
            ["--out", "{file}/under/a/file.bin"],  # the folder for --out is a file
            ["--out", "{new_file}", "--spread", "{file}/under/a/spread.bin"],
            ["--out", "{missing}/t.bin"],
            ["--out", "{new_file}", "--spread", "{missing}/s.bin"],  # no folders made
            ["--rules", "zoo", "--out", "/pico-yahtzee-no-such-folder/t.bin"],
        ],  # at the root neither
        "folder instead of file": [
            ["--out", "{folder}"],
            ["--rules", "zoo", "--out", "{folder}"],
            ["--out", "{new_file}", "--spread", "{folder}"],
        ],
        "unwritable": [
            ["--out", "{unwritable}/table.bin"],
            ["--out", "/dev/null"],
            ["--rules", "zoo", "--out", "{unwritable}/zoo.bin"],
            ["--out", "{new_file}", "--spread", "{unwritable}/spread.bin"],
        ],
        "huge number": [
            ["--compact", "--bits", HUGE, "--out", "{new_file}"],
            ["--compact", "--bits", "5", "--out", "{new_file}"],
        ],  # too few for a block's span
        "non-UTF-8": [
            ["--out", b"{folder}/\xff.bin"],
            ["--rules", b"\xff", "--out", "{new_file}"],
            ["--out", "{new_file}", "--spread", b"{folder}/\xff.bin"],
        ],
        "unknown option": [
            ["--frobnicate", "--out", "{new_file}"],
            ["--out"],
            ["--out", "{new_file}", "--spread"],
            ["--rules", "zoo", "--out", "{new_file}", "--spread", "{folder}/zoo-spread.bin"],  # 13-box cards only
            ["--bits", "7", "--out", "{new_file}"],
        ],  # --bits is the compact table's
        "FIFO": [["--out", "{fifo}"], ["--out", "{new_file}", "--spread", "{fifo}"]],
        "link": [["--out", "{zero_link}"], ["--out", "{dir_link}"], ["--out", "{new_file}", "--spread", "{fifo_link}"]],
        "oversized": [
            ["--out", "{folder}/%s.bin" % LONG],
            ["--out", "{new_file}", "--spread", "{folder}/%s.bin" % LONG],
        ],
        "duplicate keys": NO_JSON,
        "same output twice": [
            ["--out", "{new_file}", "--spread", "{new_file}"],
            ["--out", "{file}", "--spread", "{file}"],
        ],
    },
    "bench": {
        "empty": [[""]],
        "missing file": NOT_APPLICABLE("takes no file"),
        "folder instead of file": NOT_APPLICABLE("takes no file"),
        "unwritable": NOT_APPLICABLE("writes nothing"),
        "huge number": [[HUGE]],
        "non-UTF-8": [[b"\xff"]],
        "unknown option": [["--frobnicate"], ["nosuchbench"]],  # a subject must exist
        "FIFO": NO_FILE,
        "link": NO_FILE,
        "oversized": NO_FILE,
        "duplicate keys": NO_JSON,
        "same output twice": ONE_OUTPUT,
    },
    "sim": {
        "empty": [
            ["--flash-dir", ""],
            ["--heap", ""],
            ["--screenshot", ""],
            ["--code-dir", ""],
            ["--seed", ""],
            ["--battery", ""],
            ["--hold-at-boot", ""],
        ],
        "missing file": [["--code-dir", "{missing}"], ["--screenshot", "{missing}/shot.png"]],
        "folder instead of file": [["--screenshot", "{folder}"], ["--code-dir", "{folder}"]],
        "unwritable": [
            ["--flash-dir", "{unwritable}"],
            ["--flash-dir", "{unwritable}/new"],
            ["--screenshot", "{unwritable}/shot.png"],
            ["--flash-dir", "{file}"],
        ],
        "huge number": [
            ["--heap", "99999999999G"],
            ["--heap", "abc"],
            ["--battery", HUGE],
            ["--battery", "4000:3000:" + HUGE],
            ["--keys", "wait:" + HUGE],
            ["--keys", "hold:m:" + HUGE],
        ],
        "non-UTF-8": [["--keys", b"\xff"], ["--heap", b"\xff"], ["--flash-dir", "{file}", "--keys", b"enter \xfe"]],
        "unknown option": [["--frobnicate"], ["--oled", "ssd1309"], ["extra"], ["--lang", "xx"], ["--lang", ""]],
        "FIFO": [["--screenshot", "{fifo}"], ["--flash-dir", "{fifo}"], ["--code-dir", "{fifo}"]],
        "link": [["--screenshot", "{zero_link}"], ["--screenshot", "{dir_link}"], ["--flash-dir", "{zero_link}"]],
        "oversized": [["--screenshot", "{folder}/%s.png" % LONG], ["--flash-dir", "{folder}/%s" % LONG]],
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("one output file (--screenshot); --flash-dir is the device's folder"),
    },
    # The device commands: rows that test one option name a valid value for the others,
    # so only that option can be the reason for exit 2.
    "pull": {
        "empty": [["--dir", ""], ["--port", ""], ["--dir", "{folder}", "--out", ""]],
        "missing file": [["--dir", "{missing}"], ["--dir", "{folder}", "--out", "{file}/under/a/file"]],
        "folder instead of file": [
            ["--port", "{folder}"],
            ["--dir", "{file}"],
            ["--dir", "{folder}", "--out", "{file}"],
        ],
        "unwritable": [
            ["--dir", "{folder}", "--out", "{unwritable}"],
            ["--dir", "{folder}", "--out", "{unwritable}/copy"],
            ["--dir", "{root}", "--out", "{folder}/copy"],
        ],  # the copy inside the folder it copies
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [["--dir", b"{folder}/\xff"], ["--port", b"/dev/tty\xff"]],
        "unknown option": [
            ["--frobnicate"],
            ["--dir", "{folder}", "extra"],
            ["--dir", "{folder}", "--port", "/dev/x"],
            ["--dir", "{folder}", "--lang", "sv"],
        ],
        "FIFO": [["--dir", "{fifo}"], ["--dir", "{folder}", "--out", "{fifo}"]],
        "link": [["--dir", "{zero_link}"], ["--dir", "{folder}", "--out", "{zero_link}"]],
        "oversized": [["--dir", "{folder}", "--out", "{root}/%s" % LONG]],
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("one output folder"),
    },
    "flash": {
        "empty": [["--port", ""], ["--board", ""], ["--source", ""], ["--mpy-cross", ""], ["--rules", ""]],
        "missing file": [["--source", "{missing}"], ["--mpy-cross", "{missing}"]],
        "folder instead of file": [["--port", "{folder}"], ["--mpy-cross", "{folder}"], ["--source", "{file}"]],
        "unwritable": NOT_APPLICABLE("writes only to the device"),
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [
            ["--port", b"/dev/tty\xff"],
            ["--board", b"pico\xff"],
            ["--source", b"{folder}/\xff"],
            ["--rules", "zoo", "--port", b"/dev/tty\xff"],
        ],
        "unknown option": [
            ["--frobnicate"],
            ["--rules", "lenient"],
            ["extra"],
            ["--repl", "--dev"],
            ["--lang", "fr"],
            ["--lang", "nl,"],
        ],
        "FIFO": [["--mpy-cross", "{fifo}"], ["--source", "{fifo}"]],
        "link": [["--source", "{zero_link}"], ["--mpy-cross", "{dir_link}"]],
        "oversized": NOT_APPLICABLE("reads no file of its own: --source is a folder"),
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("writes only to the device"),
    },
    "virtual-pico": {
        "empty": [
            ["--dir", ""],
            ["--dir", "{folder}", "--flash-size", ""],
            ["--dir", "{folder}", "--fake-version", ""],
            ["--dir", "{folder}", "--fake-mpy", ""],
        ],
        "missing file": NOT_APPLICABLE("--dir is made when missing, the one path it takes"),
        "folder instead of file": [["--dir", "{file}"], ["--dir", "{file}/flash"]],
        "unwritable": [["--dir", "{unwritable}/flash"]],
        "huge number": [
            ["--dir", "{folder}", "--flash-size", HUGE],
            ["--dir", "{folder}", "--flash-size", "-5"],
            ["--dir", "{folder}", "--flash-size", "0"],
            ["--dir", "{folder}", "--fake-version", "1.999999999.0"],
            ["--dir", "{folder}", "--fake-version", "1.-2.3"],
            ["--dir", "{folder}", "--fake-mpy", HUGE],
        ],
        "non-UTF-8": [["--dir", b"{root}/\xff"], ["--dir", "{folder}", "--fake-version", b"1.\xff.0"]],
        "unknown option": [["--frobnicate"], ["--dir", "{folder}", "extra"], ["--dir"]],
        "FIFO": [["--dir", "{fifo}"]],
        "link": [["--dir", "{zero_link}"]],
        "oversized": NOT_APPLICABLE("takes only a folder"),
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("one folder"),
    },
    "chip": {  # every row fails before the emulator starts or a flash image is written
        "empty": [["--firmware", ""], ["--flash-image", ""], ["--bootrom", ""], ["--battery", ""]],
        "missing file": [
            ["--firmware", "{missing}"],
            ["--bootrom", "{missing}"],
            ["--flash-image", "{file}/under/a/flash.bin"],
        ],
        "folder instead of file": [
            ["--firmware", "{folder}"],
            ["--bootrom", "{folder}"],
            ["--flash-image", "{folder}"],
            ["--headless", "--screenshot", "{folder}"],
        ],
        "unwritable": [
            ["--flash-image", "{unwritable}/flash.bin"],
            ["--headless", "--screenshot", "{unwritable}/shot.png"],
            ["--flash-image", "/dev/null"],
        ],
        "huge number": [["--battery", HUGE], ["--battery", "-5"], ["--headless", "--keys", "wait:" + HUGE]],
        "non-UTF-8": [
            ["--firmware", "{non_utf8}"],  # not a UF2 at all
            ["--firmware", b"{folder}/\xff.uf2"],
            ["--flash-image", b"{folder}/\xff.bin"],
            ["--headless", "--keys", b"\xff"],
        ],
        "unknown option": [["--frobnicate"], ["--oled", "ssd1309"], ["extra"], ["--screenshot", "{folder}/shot.png"]],
        "FIFO": [
            ["--firmware", "{fifo}"],
            ["--firmware", "{uf2}", "--flash-image", "{folder}/f.bin", "--bootrom", "{fifo}"],
            ["--flash-image", "{fifo}"],
        ],
        "link": [
            ["--firmware", "{zero_link}"],
            ["--firmware", "{uf2}", "--flash-image", "{folder}/f.bin", "--bootrom", "{fifo_link}"],
            ["--flash-image", "{zero_link}"],
            ["--flash-image", "{dir_link}"],
        ],
        "oversized": [
            ["--firmware", "{big}"],
            ["--firmware", "{uf2}", "--flash-image", "{folder}/f.bin", "--bootrom", "{big}"],
            ["--flash-image", "{folder}/%s.bin" % LONG],
            ["--headless", "--screenshot", "{folder}/%s.png" % LONG],
        ],
        "duplicate keys": NO_JSON,
        "same output twice": [
            ["--flash-image", "{folder}/f.bin", "--headless", "--screenshot", "{folder}/f.bin"],
            ["--firmware", "{file}", "--flash-image", "{file}"],
        ],  # the UF2 read, then overwritten
    },
    "uf2": {  # rows name a valid --out, so only the bad option can be the reason
        "empty": [
            ["--out", ""],
            ["--firmware", "", "--out", "{folder}/game.uf2"],
            ["--board", "", "--out", "{folder}/game.uf2"],
            ["--source", "", "--out", "{folder}/game.uf2"],
            ["--rules", "", "--out", "{folder}/game.uf2"],
        ],
        "missing file": [
            ["--firmware", "{missing}", "--out", "{folder}/game.uf2"],
            ["--out", "{file}/under/a/game.uf2"],
            ["--source", "{missing}", "--out", "{folder}/game.uf2"],
            ["--source", "{folder}", "--out", "{folder}/game.uf2"],
            ["--source", "/", "--out", "{folder}/game.uf2"],
        ],  # no firmware/
        "folder instead of file": [
            ["--firmware", "{folder}", "--out", "{folder}/game.uf2"],
            ["--out", "{folder}"],
            ["--source", "{file}", "--out", "{folder}/game.uf2"],
        ],
        "unwritable": [["--out", "{unwritable}/game.uf2"], ["--out", "/dev/null"]],
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [
            ["--firmware", "{non_utf8}", "--out", "{folder}/game.uf2"],
            ["--out", b"{folder}/\xff.uf2"],
            ["--board", b"pico\xff", "--out", "{folder}/game.uf2"],
            ["--source", b"{folder}/\xff", "--out", "{folder}/game.uf2"],
        ],
        "unknown option": [
            ["--frobnicate", "--out", "{folder}/game.uf2"],
            ["--out"],
            ["--rules", "lenient", "--out", "{folder}/game.uf2"],
            ["extra", "--out", "{folder}/game.uf2"],
            ["--board", "nosuch", "--out", "{folder}/game.uf2"],
            ["--lang", "xx", "--out", "{folder}/game.uf2"],
        ],
        "FIFO": [
            ["--firmware", "{fifo}", "--out", "{folder}/game.uf2"],
            ["--out", "{fifo}"],
            ["--source", "{fifo}", "--out", "{folder}/game.uf2"],
        ],
        "link": [
            ["--firmware", "{zero_link}", "--out", "{folder}/game.uf2"],
            ["--firmware", "{fifo_link}", "--out", "{folder}/game.uf2"],
            ["--out", "{zero_link}"],
            ["--out", "{dir_link}"],
        ],
        "oversized": [["--firmware", "{big}", "--out", "{folder}/game.uf2"], ["--out", "{folder}/%s.uf2" % LONG]],
        "duplicate keys": NO_JSON,
        "same output twice": [["--firmware", "{file}", "--out", "{file}"]],  # the UF2 read, then overwritten
    },
    "push": {  # rows name a valid --from (a copy as pull makes it) or a port that is
        # not plugged in (checked last, at the connection), so only the bad option counts
        "empty": [["--port", "", "--from", "{pulled}"], ["--port", "{missing}", "--from", ""]],
        "missing file": [["--port", "{missing}", "--from", "{missing}"]],
        "folder instead of file": [
            ["--port", "{folder}", "--from", "{pulled}"],
            ["--port", "{missing}", "--from", "{file}"],
            ["--port", "{missing}", "--from", "{folder}"],
        ],  # a data/ with no saves or records
        "unwritable": NOT_APPLICABLE("writes only to the device"),
        "huge number": NOT_APPLICABLE("takes no number"),
        "non-UTF-8": [
            ["--port", b"/dev/tty\xff", "--from", "{pulled}"],
            ["--port", "{missing}", "--from", b"{folder}/\xff"],
        ],
        "unknown option": [
            ["--frobnicate", "--port", "{missing}", "--from", "{pulled}"],
            ["--from", "{pulled}"],
            ["--port", "{missing}", "--from", "{pulled}", "extra"],
        ],
        "FIFO": [["--port", "{missing}", "--from", "{fifo}"]],
        "link": [["--port", "{missing}", "--from", "{zero_link}"]],
        "oversized": NOT_APPLICABLE("its files' sizes are push's own checks (test_uf2, push)"),
        "duplicate keys": NO_JSON,
        "same output twice": NOT_APPLICABLE("writes only to the device"),
    },
    "web": {  # rows fail before a build: --out is replaced by one, so it is checked first
        "empty": [["--out", ""], ["--rules", ""]],
        "missing file": [["--serve", "--no-build", "--out", "{missing}"]],
        "folder instead of file": [["--out", "{file}"], ["--out", "{file}/under"], ["--out", "{folder}"]],
        "unwritable": [["--out", "{unwritable}/site"], ["--out", "/dev/null"]],
        "huge number": [["--serve", "--port", HUGE], ["--serve", "--port", "-1"]],
        "non-UTF-8": [["--out", b"{folder}/\xff"]],
        "unknown option": [["--frobnicate"], ["--rules", "zoo"], ["--no-build"], ["extra"]],
        "FIFO": [["--out", "{fifo}"], ["--serve", "--no-build", "--out", "{fifo}"]],
        "link": [
            ["--out", "{zero_link}"],
            ["--out", "{fifo_link}"],
            ["--out", "{site_link}"],
        ],  # a site the build would replace
        "oversized": [["--out", "{folder}/%s" % LONG], ["--serve", "--no-build", "--out", "{folder}/%s" % LONG]],
        "duplicate keys": NOT_APPLICABLE("reads no JSON (site.json is the site's own, read by its page)"),
        "same output twice": [
            ["--screenshots", "--out", "docs/img/web-menu.png"],
            ["--screenshots", "--out", "docs/img/web-zoo.png/site"],
            ["--screenshots", "--out", "docs/img"],
        ],  # the clone's docs/: the pictures' folder
    },
}
# Ports that are not serial devices, for every command with --port.
NOT_PORTS = ("{file}", "{port_fifo}", "/dev/zero")
for _command, _rest in (("pull", []), ("flash", []), ("push", ["--from", "{pulled}"])):
    TABLE[_command]["folder instead of file"] = TABLE[_command]["folder instead of file"] + [
        ["--port", p] + _rest for p in NOT_PORTS
    ]
# sim rows run headless into a fresh flash folder unless they name their own.
SIM_DEFAULTS = ["--headless"]


class Paths:
    """The files and folders the placeholders name, made once for the module."""

    def __init__(self, root):
        self.root = root
        self.folder = os.path.join(root, "folder")
        os.makedirs(os.path.join(self.folder, "data"))  # a flash folder for pull --dir
        self.file = os.path.join(root, "file.txt")
        with open(self.file, "w") as f:
            f.write("a plain file\n")
        self.missing = os.path.join(root, "no-such-file.json")
        self.new_file = os.path.join(root, "new.bin")  # in a folder that exists: never made by a bad row
        self.fifo = os.path.join(root, "fifo")
        os.mkfifo(self.fifo)  # no writer: a blocking open or read would wait for ever
        self.zero_link = os.path.join(root, "zero-link")
        os.symlink("/dev/zero", self.zero_link)
        self.fifo_link = os.path.join(root, "fifo-link")
        os.symlink(self.fifo, self.fifo_link)
        self.dir_link = os.path.join(root, "dir-link")
        os.symlink(self.folder, self.dir_link)
        self.big = os.path.join(root, "big.bin")
        with open(self.big, "wb") as f:
            f.truncate(64 << 20)  # sparse: larger than any file a command takes
        self.uf2 = os.path.join(root, "fw.uf2")  # one RP2040 block: a UF2 chip accepts, so only the bootrom counts
        with open(self.uf2, "wb") as f:
            f.write(
                struct.pack("<8I", 0x0A324655, 0x9E5D5157, 0x2000, 0x10000000, 256, 0, 1, 0xE48BFF56)
                + bytes(476)
                + struct.pack("<I", 0x0AB16F30)
            )
        self.duplicate = os.path.join(root, "duplicate.json")
        with open(self.duplicate, "w") as f:
            f.write(DUPLICATE)
        self.non_utf8 = os.path.join(root, "latin1.json")
        with open(self.non_utf8, "wb") as f:
            f.write(b'{"chance": 20, "\xe9t\xe9": 1}')
        self.deep = os.path.join(root, "deep.json")
        with open(self.deep, "w") as f:
            f.write('{"a": ' * 20000)  # 120 KB of nesting
        self.deep_text = '{"a": ' * 5000  # as the option's text itself
        self.zeros = "/dev/zero"  # never ends: a command must not read it whole
        self.unwritable = unwritable_folder(root)
        self.pulled = os.path.join(root, "pulled")  # what pull --out makes, for push
        os.makedirs(os.path.join(self.pulled, "data"))
        with open(os.path.join(self.pulled, "data", "scores.a"), "wb") as f:
            f.write(save_store.pack([], 1))  # an intact record: push accepts no other
        self.port_fifo = os.path.join(root, "port-fifo")
        os.mkfifo(self.port_fifo)
        self.old_site = os.path.join(root, "old-site")  # as web leaves it: --out may replace it
        os.makedirs(self.old_site)
        with open(os.path.join(self.old_site, "site.json"), "w") as f:
            f.write("{}")
        self.site_link = os.path.join(root, "site-link")
        os.symlink(self.old_site, self.site_link)

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


PLACEHOLDERS = (
    "folder",
    "file",
    "missing",
    "new_file",
    "non_utf8",
    "deep_text",
    "deep",
    "zeros",
    "unwritable",
    "root",
    "pulled",
    "fifo_link",
    "fifo",
    "zero_link",
    "dir_link",
    "big",
    "duplicate",
    "uf2",
    "port_fifo",
    "site_link",
)


def unwritable_folder(root):
    """A folder no file can be made in: a read-only one, or for root (whom permission bits
    do not stop) /sys, where the kernel refuses new files."""
    folder = os.path.join(root, "read-only")
    os.makedirs(folder)
    os.chmod(folder, 0o555)
    if not host_tools.writable_folder(folder):
        return folder
    if os.path.isdir("/sys") and not host_tools.writable_folder("/sys"):
        return "/sys"
    pytest.fail("cannot make an unwritable folder on this machine")


@pytest.fixture(scope="module")
def clone(tmp_path_factory):
    """A fresh checkout (no build/) the commands run in: a row that builds a table or
    anything else before it refuses its bad value leaves build/ behind there."""
    return fresh_checkout(str(tmp_path_factory.mktemp("clone") / "pico-yahtzee"))


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("bad-input")
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
def test_bad_value_is_exit_2_and_one_line(paths, clone, tmp_path, command, args):
    args = paths.fill(args)
    if command == "host_tools":
        cmd = [sys.executable, "-m", "host_tools"] + args
    else:
        cmd = [sys.executable, "-m", "host_tools", command] + args
        if command == "sim":
            cmd += SIM_DEFAULTS + (["--flash-dir", str(tmp_path / "flash")] if "--flash-dir" not in args else [])
    before = tree(paths.root)
    proc = subprocess.run(cmd, capture_output=True, cwd=clone, timeout=60)
    stderr = proc.stderr.decode("utf-8", "replace")
    assert proc.returncode == 2, stderr
    assert proc.stdout == b""
    assert stderr.count("\n") == 1, stderr
    assert stderr.endswith("\n"), stderr  # one line, no traceback
    prefix = "host_tools: " if command == "host_tools" else command + ": "
    assert stderr.startswith(prefix), stderr
    assert all(ch.isprintable() for ch in stderr[:-1]), stderr  # escaped: nothing a terminal acts on
    assert tree(paths.root) == before  # nothing made or left behind (no .tmp, no folders)
    assert not os.path.exists(os.path.join(clone, "build")), tree(os.path.join(clone, "build"))  # nothing built first
    assert not (tmp_path / "flash").exists() or command != "sim" or "--flash-dir" in args


def test_every_command_covers_every_kind():
    from host_tools.__main__ import COMMANDS

    assert set(TABLE) == set(COMMANDS) | {"host_tools"}
    for command, kinds in TABLE.items():
        assert tuple(kinds) == KINDS, command
        for kind, cases in kinds.items():
            assert isinstance(cases, NOT_APPLICABLE) or cases, (command, kind)


def test_web_screenshots_clash_with_out_before_the_pictures_exist(tmp_path):
    # The table's same-output rows meet pictures already in docs/img; a picture not made yet
    # (a new scene) is no file to trip over, and the check still names it.
    from host_tools.browser import shots

    pictures = str(tmp_path / "img")
    menu = os.path.join(pictures, "web-menu.png")
    assert shots.clash(menu, pictures) == menu
    assert shots.clash(os.path.join(menu, "site"), pictures) == menu
    assert shots.clash(str(tmp_path), pictures) is not None  # the folder holding them, replaced by a build
    assert shots.clash(str(tmp_path / "site"), pictures) is None
    assert not os.path.exists(pictures)
