"""Helpers shared by the flash, UF2 and virtual-Pico tests: small source trees, running the
CLI, a firmware UF2 shaped like MicroPython's, a stand-in strategy table.

A source tree is what ``flash --source`` reads: ``firmware/``, ``boards/`` and optionally
``build/strategy-<rules>.bin``. ``tiny_tree`` builds a minimal game whose main.py prints
one line naming its version, so a test can tell which game a device would boot.
"""

import hashlib
import os
import shutil
import struct
import subprocess
import sys
import time

import host_tools
from host_tools.flashing import uf2 as _uf2

TINY_FILES = 8  # files tiny_tree puts on a device, device.cfg included
TINY_MAIN = "import version\nprint('game', version.NUMBER)\n"


def tiny_tree(root, number=1):
    """A minimal source tree: main.py, version.py, a drivers package, boards sim and pico
    plus a helper module; flashed, it is TINY_FILES files with device.cfg (board sim; flash
    copies the board modules and drivers a board imports: board pico leaves boards/sim out)."""
    files = {
        "firmware/main.py": TINY_MAIN,
        "firmware/version.py": "NUMBER = %d\n" % number,
        "firmware/drivers/__init__.py": "",
        "firmware/drivers/pips.py": "PIPS = (1, 2, 3)\n",
        "boards/sim.py": "from boards import helper, pico\n\n\ndef build(config):\n    return 'sim'\n",
        "boards/pico.py": "import drivers.pips\nfrom boards import helper\n\n\ndef build(config):\n    return 'pico'\n",
        "boards/helper.py": "SHARED = 1\n",
    }
    for path, text in files.items():
        write(root, path, text)
    return root


def copy_checkout(root):
    """A copy of this checkout's firmware/ and boards/ (never flash the real tree in tests)."""
    for top in ("firmware", "boards"):
        here = os.path.join(host_tools.REPO, top)
        if os.path.isdir(here):
            shutil.copytree(here, os.path.join(root, top), ignore=shutil.ignore_patterns("__pycache__"))
    return root


def write(root, path, data):
    full = os.path.join(root, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "wb" if isinstance(data, bytes) else "w") as out:
        out.write(data)
    return full


def run_flash(*args, env=None, timeout=120):
    """``python -m host_tools flash ARGS`` as a maker runs it; returns CompletedProcess."""
    cmd = [sys.executable, "-m", "host_tools", "flash"] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=host_tools.REPO, env=env, timeout=timeout)


def tree_hashes(root):
    """{relative path: sha256} of every file under ``root``."""
    found = {}
    for folder, _dirs, files in os.walk(root):
        for name in files:
            full = os.path.join(folder, name)
            with open(full, "rb") as data:
                found[os.path.relpath(full, root)] = hashlib.sha256(data.read()).hexdigest()
    return found


def wait_for(path, process, timeout=30):
    """Wait until ``path`` exists while ``process`` runs; False if it ended or time ran out."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and process.poll() is None:
        if os.path.exists(path):
            return True
        time.sleep(0.005)
    return False


def boot(folder):
    """Run the flashed tree's main.py in the unix port the way the Pico does at boot."""
    code = (
        "import os, sys\nos.chdir(%r)\ndel sys.path[:]\nsys.path.append('')\nexec(open('main.py').read(), {'__name__': '__main__'})"
        % str(folder)
    )
    return subprocess.run(
        [host_tools.micropython_command(), "-c", code],
        capture_output=True,
        text=True,
        timeout=30,
        env={"MICROPYPATH": ""},
    )


def firmware_uf2(board="pico", family=_uf2.RP2040, program="MicroPython", version="v1.28.0", pages=24, extra=()):
    """A firmware UF2 shaped like the official ones: code from 0x10000000 with the binary
    info marker in the first sector, ID_AND_STRING entries for program, version, board."""
    image = bytearray(os.urandom(pages * _uf2.PAYLOAD))
    base = _uf2.FLASH_BASE
    strings = {0x02031C86: program, 0x11A9BC3A: version, 0xB63CFFBB: board}
    entries, at_entry, at_text = [], 0x500, 0x700
    for ident, text in strings.items():
        raw = text.encode() + b"\0"
        image[at_text : at_text + len(raw)] = raw
        struct.pack_into("<HHII", image, at_entry, 6, 0x5052, ident, base + at_text)
        entries.append(base + at_entry)
        at_entry += 12
        at_text += len(raw)
    struct.pack_into("<%dI" % len(entries), image, 0x400, *entries)
    struct.pack_into("<3I", image, 0x300, 0, 0, 0)  # an empty RAM mapping table
    struct.pack_into(
        "<5I", image, 0x1D4, 0x7188EBF2, base + 0x400, base + 0x400 + 4 * len(entries), base + 0x300, 0xE71AA390
    )
    addresses = [base + i * _uf2.PAYLOAD for i in range(pages)] + list(extra)
    out = bytearray()
    for number, address in enumerate(addresses):
        offset = address - base
        payload = bytes(image[offset : offset + _uf2.PAYLOAD]) if offset < len(image) else os.urandom(_uf2.PAYLOAD)
        out += _uf2._pack(_uf2.FLAG_FAMILY_ID, address, payload, number, len(addresses), family)
    return bytes(out)


def table_file(variant, size):
    """A stand-in strategy table: the header's variant byte and ``size`` bytes."""
    data = bytearray(os.urandom(size))
    data[:4] = b"YZOT"
    data[5] = {"exact": 1, "compact": 2}[variant]
    return bytes(data)
