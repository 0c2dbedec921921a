"""The chip tier's shared emulated Picos: flashed once per test session, copied by each test.

Imported by conftest.py, so every test file may ask for them:

- ``chip_flashed``: ``(image path, flash output)``: a fresh emulated Pico flashed with the
  game and the exact table as the README shows (``make chip CHIPARGS=--fresh`` then
  ``make flash PORT=...``). About a minute and a half of the chip tier's time, so once.
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
    from host_tools import advise
    import rules

    advise.ensure_table(rules.make_ruleset())  # both built (seconds) when missing, so the
    advise.ensure_spread(rules.make_ruleset())  # chip always shows the win meter
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
    try:
        port = chip.stdout.readline().strip()
        assert port.startswith("/dev/"), port
        proc = chip_session.run_host_tool("flash", "--port", port, timeout=900)
    finally:
        os.killpg(chip.pid, signal.SIGINT)  # ^C: the emulator writes its flash and stops
        chip.wait(timeout=60)
    return image, proc


def _default_sigint():
    """^C stops ``chip`` even when pytest itself was started with SIGINT ignored (a shell's
    background job), as a terminal's ^C would."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture(scope="session")
def chip_seeded(chip_flashed, tmp_path_factory):
    """The flashed image with ``seed=mix_seed(4)`` in device.cfg (unix_port.mix_seed)."""
    from host_tools.simulator.unix_port import mix_seed

    image = chip_copy(chip_flashed[0], tmp_path_factory.mktemp("chip"), "seeded.bin")
    chip_session.set_config(image, bootrom=chip_files()[1], seed=mix_seed(SEED))
    return image
