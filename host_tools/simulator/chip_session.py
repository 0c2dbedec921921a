"""Ready-made emulated Picos for the chip tests and benches: flash the game, edit files.

``fixture_files(folders)`` finds the official UF2 and the bootrom (build/rp2/, else the
first of ``folders`` holding each, checked against a SHA256SUMS there) or says which file
is missing and where to get it.
``flash_game(image, ...)`` erases a flash image, loads the UF2 and runs ``python -m
host_tools flash --port <pty>`` against the emulated Pico, exactly as a maker does with a
real one (minutes on a loaded machine: for what tests flashing); ``built_image(image,
...)`` writes the same files into the image directly, as ``make uf2`` lays them out
(seconds: for everything else). ``serving(image)`` runs a chip with its USB port on a pty (for mpremote, flash,
pull); ``device_exec(port, code)`` runs Python on it over the raw REPL (mpremote).
"""

import contextlib
import hashlib
import os
import subprocess
import sys

import host_tools
from host_tools.simulator import chip as sim_chip
from host_tools.simulator import chip_image


def fixture_files(folders=()):
    """``(firmware, bootrom, problem)``: the two paths, or a one-line ``problem`` naming the
    missing file and where to get it (the chip tier's one skip reason). ``folders`` are
    looked in after build/rp2/ (the tests pass the fixtures' folder beside the checkout)."""
    found = {}
    for name in (chip_image.FIRMWARE_NAME, chip_image.BOOTROM_NAME):
        path = chip_image.find_file(name, folders)
        if path is None:
            return None, None, "%s not found: %s" % (name, chip_image.fetch_hint(name))
        found[name] = path
    for folder in folders:
        sums = os.path.join(folder, "SHA256SUMS")
        if not os.path.isfile(sums):
            continue
        with open(sums, encoding="utf-8") as f:
            for line in f:
                digest, _, name = line.strip().partition("  ")
                path = found.get(name)
                if path and os.path.dirname(path) == folder:
                    with open(path, "rb") as g:
                        if hashlib.sha256(g.read()).hexdigest() != digest:
                            raise ValueError("%s does not match %s" % (path, sums))
    return found[chip_image.FIRMWARE_NAME], found[chip_image.BOOTROM_NAME], None


def ensure_node():
    """rp2040js in build/rp2040 (``npm ci`` when missing, as ``make chip-deps`` does)."""
    try:
        sim_chip.node_command()
    except sim_chip.ChipError:
        sim_chip.install_node_modules()
        sim_chip.node_command()


@contextlib.contextmanager
def serving(image, **options):
    """A chip running freely on ``image`` with its USB port on a pty: yields (device, port)."""
    device = sim_chip.ChipDevice(image, **options)
    try:
        port = device.open_pty()
        device.run_free()
        device.wait_port()
        yield device, port
    finally:
        device.close()


def run_host_tool(command, *args, timeout=600):
    cmd = [sys.executable, "-m", "host_tools", command] + [str(a) for a in args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=host_tools.REPO, timeout=timeout)


def flash_game(image, firmware, board="pico", source=None, fresh=True, timeout=900, bootrom=None):
    """Load ``firmware`` into ``image`` (erased first when ``fresh``) and run ``host_tools
    flash`` against the chip; returns the CompletedProcess."""
    chip_image.prepare_image(image, firmware=firmware if fresh else None, fresh=fresh)
    args = ["--port", None, "--board", board] + (["--source", source] if source else [])
    with serving(image, bootrom=bootrom) as (_device, port):
        args[1] = port
        return run_host_tool("flash", *args, timeout=timeout)


def built_image(image, firmware, board="pico", rules="forced", source=None, config=()):
    """Make ``image`` an erased Pico flash holding ``firmware`` and the game's files with
    their tables, as ``make uf2`` builds them (what ``make flash`` would copy; ``config``:
    (key, value) lines added to /device.cfg), without the emulated chip."""
    import tempfile

    from host_tools.flashing import build as flash_build
    from host_tools.flashing import bundle

    with tempfile.TemporaryDirectory() as folder:
        game = os.path.join(folder, "game.uf2")
        bundle.make(
            source or flash_build.default_source(),
            firmware,
            board,
            rules,
            False,
            game,
            say=lambda _text: None,
            config=tuple(config),
        )
        chip_image.prepare_image(image, firmware=game, fresh=True)
    return image


def flash_failure(proc, seconds):
    """One message for a ``flash`` onto the emulated Pico that failed: what it said last,
    how long it took and how fast the emulated Pico ran (its own speed line)."""
    said = (proc.stderr.strip() or proc.stdout.strip()).splitlines()
    speed = [line for line in proc.stdout.splitlines() if "of a Pico's speed" in line]
    return "make flash onto the emulated Pico failed after %.0f s%s: %s" % (
        seconds,
        " (%s)" % speed[-1].split(": ", 1)[-1] if speed else "",
        said[-1] if said else "no output (exit %d)" % proc.returncode,
    )


def device_exec(port, code, timeout=120):
    """Run ``code`` on the device over the raw REPL (interrupting the game); returns stdout."""
    cmd = host_tools.mpremote_command("connect", port, "exec", code)
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    if done.returncode:
        raise RuntimeError("mpremote exec failed: %s" % (done.stderr.strip() or done.stdout.strip()))
    return done.stdout


def set_config(image, files=(), bootrom=None, **values):
    """Add ``key=value`` lines to the device's /device.cfg (e.g. ``seed=4``, ``board=...``);
    ``files`` (flashing.build.DeviceFile) are written too: a board switch needs the board's
    own modules, which a flash for another board does not copy."""
    with serving(image, bootrom=bootrom) as (_device, port):
        text = "".join("%s=%s\n" % item for item in values.items())
        code = "f = open('device.cfg', 'a')\nf.write(%r)\nf.close()\n" % text
        for device_file in files:
            code += "f = open(%r, 'wb')\nf.write(%r)\nf.close()\n" % (device_file.path, device_file.data)
        device_exec(port, code)
