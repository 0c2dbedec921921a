"""Helpers shared by the flash and virtual-Pico tests: small source trees, running the CLI.

A source tree is what ``flash --source`` reads: ``firmware/``, ``boards/`` and optionally
``build/strategy-<rules>.bin``. ``tiny_tree`` builds a minimal game whose main.py prints
one line naming its version, so a test can tell which game a device would boot.
"""

import hashlib
import os
import shutil
import subprocess
import sys
import time

import host_tools

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
