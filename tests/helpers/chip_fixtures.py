"""The chip tier's shared emulated Picos: flashed once per test session, copied by each test.

Imported by conftest.py, so every test file may ask for them:

- ``chip_flashed``: ``(image path, flash output)``: a fresh emulated Pico flashed with the
  game and the exact table as the README shows (``make chip CHIPARGS=--fresh`` then
  ``make flash PORT=...``). A minute and a half of the chip tier's time on an idle
  machine (6.5 on a loaded one), so once, and only for the tests of flashing; a flash
  that fails is one message naming it.
- ``chip_built``: the image ``make uf2`` lays out (the same files), written directly in
  seconds: where the test is not about flashing.
- ``chip_seeded``: that image with ``seed=mix_seed(4)`` in device.cfg, the seed ``sim
  --seed 4`` gives the firmware, so the chip draws the unix simulator's dice.
- ``chip_copy(image, folder)``: a test's own copy of an image (2 MiB; tests never write
  the shared ones).

Both skip, with the one reason naming the missing file, where the official UF2 or the
bootrom is missing (``chip_files``: build/rp2/, then the folder beside the checkout).
"""

import os
import shutil
import signal
import subprocess
import sys
import time

import pytest

import host_tools
from host_tools.simulator import chip_session

SEED = 4  # the unix simulator's --seed the seeded image matches


def beside_checkout():
    """``../shared/rp2`` beside the main checkout, where CI keeps the bootrom, as a tuple
    of the folders that exist. Only the tests look outside the checkout; they pass what
    they find to the host tools. From a git worktree the main checkout is found through
    ``.git`` (a file there)."""
    candidates = [os.path.join(os.path.dirname(host_tools.REPO), "shared", "rp2")]
    dot_git = os.path.join(host_tools.REPO, ".git")
    if os.path.isfile(dot_git):
        with open(dot_git, encoding="utf-8") as f:
            gitdir = f.read().partition("gitdir:")[2].strip()
        main = gitdir.split(os.sep + ".git" + os.sep)[0]
        candidates.append(os.path.join(os.path.dirname(main), "shared", "rp2"))
    return tuple(folder for folder in candidates if os.path.isdir(folder))[:1]


def chip_files():
    """``(firmware, bootrom, problem)`` of chip_session.fixture_files: build/rp2/, then
    the folder beside the checkout (checked against its SHA256SUMS)."""
    return chip_session.fixture_files(beside_checkout())


def chip_copy(image, folder, name="flash.bin"):
    path = os.path.join(str(folder), name)
    shutil.copyfile(image, path)
    return path


@pytest.fixture(scope="session")
def chip_flashed(tmp_path_factory):
    """(image path, flash output): what ``make chip CHIPARGS=--fresh`` and ``make flash
    PORT=...`` run: the chip command prints its port once it is up, the flash command uses it."""
    firmware, bootrom, missing = chip_files()
    if missing:
        pytest.skip(missing)
    chip_session.ensure_node()
    _ensure_tables()
    image = str(tmp_path_factory.mktemp("chip") / "flash.bin")
    chip = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "host_tools",
            "chip",
            "--fresh",
            "--firmware",
            firmware,
            "--bootrom",
            bootrom,
            "--flash-image",
            image,
        ],
        cwd=host_tools.REPO,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_default_sigint,
    )
    began = time.monotonic()
    try:
        port = chip.stdout.readline().strip()
        assert port.startswith("/dev/"), port
        proc = chip_session.run_host_tool("flash", "--port", port, timeout=3600)
    finally:
        os.killpg(chip.pid, signal.SIGINT)  # ^C: the emulator writes its flash and stops
        chip.wait(timeout=60)
    if proc.returncode:
        pytest.fail(chip_session.flash_failure(proc, time.monotonic() - began), pytrace=False)
    return image, proc


@pytest.fixture(scope="session")
def chip_built(tmp_path_factory):
    """An erased emulated Pico's flash with MicroPython and the game as ``make uf2`` lays
    it out (what ``make flash`` would copy, the tables too), built directly."""
    firmware, _bootrom, missing = chip_files()
    if missing:
        pytest.skip(missing)
    chip_session.ensure_node()
    _ensure_tables()
    return chip_session.built_image(str(tmp_path_factory.mktemp("chip") / "built.bin"), firmware)


def _ensure_tables():
    from host_tools import advise
    import rules

    advise.ensure_table(rules.make_ruleset())  # both built (seconds) when missing, so the
    advise.ensure_spread(rules.make_ruleset())  # chip always shows the win meter


def _default_sigint():
    """^C stops ``chip`` even when pytest itself was started with SIGINT ignored (a shell's
    background job), as a terminal's ^C would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def chip_seeded(chip_built, tmp_path_factory):
    """The built image with ``seed=mix_seed(4)`` in device.cfg (unix_port.mix_seed)."""
    from host_tools.simulator.unix_port import mix_seed

    firmware = chip_files()[0]
    image = str(tmp_path_factory.mktemp("chip") / "seeded.bin")
    return chip_session.built_image(image, firmware, config=[("seed", mix_seed(SEED))])
