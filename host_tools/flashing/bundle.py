"""One UF2 to install everything: MicroPython plus the filesystem ``flash`` would leave.

The files are exactly those of ``host_tools flash`` (``build.build``, the strategy table,
``/flash_manifest.txt`` as ``flashing.plan.manifest_text`` writes it), so a ``make flash`` after
installing the UF2 finds every hash equal and copies nothing. The filesystem image is
made and then checked by MicroPython's own littlefs (``fs_image``); the UF2 is read back,
its filesystem region laid over a flash that is not erased, and mounted like the rp2
port does at boot, before the file is written.
"""

import os
import time

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing import fs_image, uf2
from host_tools.flashing import plan as flash_plan
from host_tools.flashing.device import MANIFEST

FIRMWARE_DIR = os.path.join("build", "micropython")  # where --firmware is looked for by default


class BundleError(Exception):
    """The UF2 cannot be made as asked; one line for the user (exit 2: change the input)."""


class Made:
    """What ``make`` wrote: sizes and layout for the summary lines."""

    def __init__(self, **fields):
        self.__dict__.update(fields)


def default_firmware(source):
    """The one ``.uf2`` in build/micropython/ (downloaded there by the maker)."""
    folder = os.path.join(source, FIRMWARE_DIR)
    found = sorted(n for n in os.listdir(folder) if n.lower().endswith(".uf2")) if os.path.isdir(folder) else []
    if len(found) == 1:
        return os.path.join(folder, found[0])
    if found:
        raise BundleError(
            "%d firmware files in %s (%s): pick one with --firmware FILE (make uf2 FIRMWARE=FILE)"
            % (len(found), FIRMWARE_DIR, ", ".join(found))
        )
    raise BundleError(
        "no MicroPython firmware: download the .uf2 for your board (https://micropython.org/download/RPI_PICO/, "
        "RPI_PICO_W, RPI_PICO2) into %s/ or pass --firmware FILE (make uf2 FIRMWARE=FILE)" % FIRMWARE_DIR
    )


def read_firmware(path):
    try:
        data = host_tools.read_input_file("--firmware", path, uf2.MAX_UF2_BYTES, "UF2 file")
    except host_tools.UsageError as exc:
        raise BundleError(str(exc)) from None
    try:
        return uf2.read_firmware(data, path)
    except uf2.Uf2Error as exc:
        raise BundleError(str(exc)) from None


def check_output(path):
    """Refuse an output path that cannot be written before doing any work (the rule every
    command's output follows: host_tools.check_output_file)."""
    try:
        host_tools.check_output_file("--out", path)
    except host_tools.UsageError as exc:
        raise BundleError(str(exc)) from None


def _table_variant(data):
    host_tools.use_firmware()
    import strategy_table

    return {strategy_table.EXACT: "exact", strategy_table.COMPACT: "compact"}.get(
        data[5] if len(data) > 5 else None, "unknown"
    )


def strategy_table(source, rules, compact, say):
    """The table ``flash`` would copy: build/strategy-<rules>.bin, or with ``compact``
    build/strategy-<rules>-compact.bin; built first when it is missing (or holds the other
    variant, as an older uf2 --compact left it), as ``make flash`` does."""
    table = flash_build.strategy_table(source, rules, compact)
    variant = "compact" if compact else "exact"
    if table is not None and _table_variant(table.data) == variant:
        return table
    path = os.path.join(source, flash_build.table_file(rules, compact))
    say(
        "building the %s strategy table %s (make table%s)"
        % (variant, flash_build.table_file(rules, compact), " COMPACT=1" if compact else "")
    )
    from host_tools.solver import files as solver_files

    ruleset = _ruleset(rules)
    if os.path.realpath(source) == os.path.realpath(host_tools.REPO):
        from host_tools.solver import cache  # this checkout's solve, cached under build/cache

        with open(cache.table(ruleset, variant), "rb") as f:
            data = f.read()
    else:  # another tree's rules.py: solve it (a few seconds)
        data, _expected, _loss = solver_files.build(ruleset, variant, measure_loss=False)
    solver_files.write_atomic(path, data)
    return flash_build.strategy_table(source, rules, compact)


def _ruleset(name):
    host_tools.use_firmware()
    import rules

    return rules.make_ruleset(joker=name)


def _need_free_blocks(keep=None):
    """Free blocks a later ``flash`` needs with nothing to copy: its reserve for saves
    (``keep`` bytes: more beside a menu table) plus one for the manifest
    (flashing.plan.Plan.decide), else it stops with 'not enough space' or leaves the table out."""
    return -(-(flash_plan.RESERVE_BYTES if keep is None else keep) // fs_image.BLOCK) + 1


def device_files(source, arch, board, rules, table, extra=(), built=None, langs=None):
    """Every file ``flash`` leaves on the device: its build (``built`` when already made;
    ``langs`` as flash_build.build takes them), the table, the tables after it that fit
    (``extra``), the manifest."""
    if built is None:
        mpy_cross = flash_build.find_mpy_cross()
        flash_build.check_mpy_cross(mpy_cross)
        built = flash_build.build(source, mpy_cross, arch, board, rules, langs)
    ours = list(built) + [table] + list(extra)
    return ours + [flash_build.DeviceFile(MANIFEST, flash_plan.manifest_text(ours).encode())]


def extra_tables(source, rules):
    """What ``flash`` plans after the strategy table, in its order, each when it was built:
    the spread table (win meter, CPU win), then the menu's Zoo table."""
    spread = flash_build.spread_table(source, rules)
    return ([spread] if spread is not None else []) + flash_build.menu_tables(source, rules)


def fill(source, arch, board, rules, table, block_count, say=lambda text: None, built=None, langs=None):
    """What a UF2 of ``block_count`` filesystem blocks carries, as ``flash`` would leave it:
    the build, ``table``, then each further table (``extra_tables``) that still leaves a
    later flash its room (``built``: the build when already made). (files, image, touched
    blocks, free bytes); free below the game's reserve (-1: not even the game and
    ``table`` fit) means ``table`` does not fit."""
    everything = device_files(source, arch, board, rules, table, built=built, langs=langs)
    try:
        image, touched, free = fs_image.build(everything, block_count)
    except fs_image.FilesystemFull:
        return everything, None, set(), -1
    if free < _need_free_blocks() * fs_image.BLOCK:
        return everything, image, touched, free
    kept, built = [], everything[:-2]  # (everything: the build, the table, the manifest)
    for more in extra_tables(source, rules):
        trial = device_files(source, arch, board, rules, table, kept + [more], built=built)
        try:
            trial_image, trial_touched, trial_free = fs_image.build(trial, block_count)
        except fs_image.FilesystemFull:
            trial_free = -1
        if trial_free >= _need_free_blocks(flash_plan.keep_free_beside(more.path)) * fs_image.BLOCK:
            kept.append(more)
            everything, image, touched, free = trial, trial_image, trial_touched, trial_free
        else:
            say(
                "%s (%d KiB) does not fit beside the game: left out, as flash would"
                % (more.path, len(more.data) // 1024)
            )
    return everything, image, touched, free


def make(source, firmware_path, board, rules, compact, out, say=print, config=(), langs=None):
    """Write the UF2 to ``out``; returns a Made. BundleError for input to change;
    BuildError / fs_image.ImageError for a failure of the tools. ``config``: (key, value)
    lines added to its /device.cfg (the chip tests' seed); ``langs``: the languages
    (flash_build.build)."""
    started = time.monotonic()
    check_output(out)
    if flash_build.source_problem(source):
        raise BundleError(flash_build.source_problem(source))
    boards = flash_build.board_names(source)
    if flash_build.host_only_problem(board):
        raise BundleError(flash_build.host_only_problem(board))
    if boards and board not in boards:
        raise BundleError("unknown board %r: boards/ has %s" % (board, ", ".join(boards)))
    firmware_path = firmware_path or default_firmware(source)
    if os.path.realpath(firmware_path) == os.path.realpath(out):
        raise BundleError("--out %s is the firmware file itself: write the new UF2 elsewhere" % out)
    firmware = read_firmware(firmware_path)
    layout = firmware.layout
    if board not in layout.game_boards:
        fitting = [lay.build for lay in uf2.LAYOUTS if board in lay.game_boards]
        raise BundleError(
            "board %s needs the %s firmware, but %s is MicroPython for %s: pass that board's UF2 with --firmware "
            "FILE (make uf2 FIRMWARE=FILE)" % (board, " or ".join(fitting) or "?", firmware_path, layout.build)
        )
    say(
        "uf2: %s %s for %s (%s), code 0x%08X-0x%08X"
        % (
            firmware.program,
            firmware.version,
            layout.build,
            uf2.FAMILY_NAMES[firmware.family],
            uf2.FLASH_BASE,
            firmware.code_end,
        )
    )
    table = strategy_table(source, rules, compact, lambda text: say("uf2: " + text))
    built = None
    if config:
        mpy_cross = flash_build.find_mpy_cross()
        flash_build.check_mpy_cross(mpy_cross)
        lines = "".join("%s=%s\n" % item for item in config).encode()
        built = [
            flash_build.DeviceFile(f.path, f.data + lines) if f.path == flash_build.CONFIG_PATH else f
            for f in flash_build.build(source, mpy_cross, firmware.arch, board, rules, langs)
        ]
    variant = _table_variant(table.data)
    everything, image, touched, free = fill(
        source, firmware.arch, board, rules, table, layout.block_count, lambda text: say("uf2: " + text), built, langs
    )
    if free < _need_free_blocks() * fs_image.BLOCK:
        smaller = (
            "the compact table: add --compact (make uf2 COMPACT=1, or make table COMPACT=1 first)"
            if variant != "compact"
            else "none: this firmware's filesystem is too small for the game"
        )
        raise BundleError(
            "the %s strategy table %s (%d KiB) does not fit %s's %d KiB filesystem beside the game (%d KiB must stay free for saves); the one that fits: %s"
            % (
                variant,
                flash_build.table_file(rules, compact),
                len(table.data) // 1024,
                layout.build,
                layout.fs_bytes // 1024,
                flash_plan.RESERVE_BYTES // 1024,
                smaller,
            )
        )
    touched |= {0, 1}  # the superblock pair, whatever an older filesystem left there
    fs_blocks = {
        layout.fs_start + n * fs_image.BLOCK: image[n * fs_image.BLOCK : (n + 1) * fs_image.BLOCK]
        for n in sorted(touched)
    }
    data = uf2.write(firmware, fs_blocks)
    verify(data, layout, everything)
    try:
        host_tools.write_file_atomic(out, data)
    except OSError as exc:
        raise BundleError("cannot write %s: %s" % (out, exc.strerror or exc)) from None
    return Made(
        firmware=firmware,
        layout=layout,
        files=everything,
        table=table,
        variant=variant,
        free=free,
        size=len(data),
        blocks=len(data) // uf2.BLOCK,
        fs_written=len(touched) * fs_image.BLOCK,
        seconds=time.monotonic() - started,
    )


def verify(data, layout, files, fill=None):
    """Read ``data`` back as the bootrom would, lay its filesystem blocks over a flash
    holding ``fill`` (default: zeros, i.e. not erased) and mount it as the rp2 port does:
    every file must be there with its hash, and nothing else."""
    blocks = uf2.parse(data, "the new UF2")
    region = uf2.region(blocks, layout, fill if fill is not None else bytes(layout.fs_bytes))
    found, _stat = fs_image.read(region)
    want = {f.path: (len(f.data), f.sha256) for f in files}
    if found != want:
        wrong = sorted(set(found.items()) ^ set(want.items()))
        raise fs_image.ImageError(
            "the image read back differs from the files (%s)" % ", ".join(p for p, _ in wrong[:3])
        )
