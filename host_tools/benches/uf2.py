"""One-file install (``host_tools uf2``): filesystem image size per board, build time, and
the time a Pico takes to write the file (an estimate from flash datasheet figures).

The image is what ``uf2`` writes: the checkout's game for the board, the table each board
takes (exact; compact on the Pico W) and the spread and Zoo tables where they fit. With an official firmware in build/micropython/ (the ``uf2`` default) the whole
file is built and timed too. Write time: every 4 KiB sector the file touches is erased and
every 256-byte page programmed by the bootrom; W25Q16JV (the Pico's flash) typical 45 ms
per sector erase and 0.4 ms per page program (max 400 ms and 3 ms), USB transfer overlapped.
With the emulated Pico's files (``host_tools chip``): the emulated time from power-on to
the menu on a flash that holds only the Pico UF2.
"""

import os
import statistics
import tempfile
import time

import host_tools
from host_tools.flashing import bundle, device, fs_image, uf2

SECTOR_ERASE_S = (0.045, 0.400)  # W25Q16JV datasheet: typical, max
PAGE_PROGRAM_S = (0.0004, 0.003)


def _write_time(pages, sectors, column):
    return sectors * SECTOR_ERASE_S[column] + pages * PAGE_PROGRAM_S[column]


def run():
    host_tools.use_firmware()
    import rules

    from host_tools.solver import cache

    source = host_tools.REPO
    for layout, variant, board in (
        (uf2.LAYOUTS[0], "exact", "pico"),
        (uf2.LAYOUTS[1], "compact", "pico"),
        (uf2.LAYOUTS[2], "exact", "pico2"),
    ):
        path = cache.table(rules.make_ruleset(), variant)
        with open(path, "rb") as f:
            from host_tools.flashing.build import DeviceFile

            table = DeviceFile("/strategy-forced.bin", f.read(), path)
        arch = next(iter(layout.families.values()))
        files = bundle.fill(source, arch, board, "forced", table, layout.block_count)[0]
        times = []
        for _ in range(3):
            started = time.monotonic()
            _image, touched, free = fs_image.build(files, layout.block_count)
            times.append(time.monotonic() - started)
        sectors = len(touched | {0, 1})
        pages = sectors * fs_image.BLOCK // uf2.PAYLOAD
        extra = [f.path.lstrip("/") for f in files if f.path.endswith(".bin") and f is not table]
        game = sum(len(f.data) for f in files if not f.path.endswith(".bin") and f.path != device.MANIFEST)
        print(
            "%-10s board %s (%s .mpy, %d bytes) with the %s table (strategy-forced.bin) + %s, as uf2 makes it: filesystem part %d bytes "
            "of UF2 (%d sectors), littlefs free on the device %d KiB, image built in median %.2f s; writing it: "
            "about %.0f s (max %.0f s)"
            % (
                layout.build,
                board,
                arch or "bytecode",
                game,
                variant,
                " + ".join(extra) or "no other table",
                pages * uf2.BLOCK,
                sectors,
                free // 1024,
                statistics.median(times),
                _write_time(pages, sectors, 0),
                _write_time(pages, sectors, 1),
            )
        )
    folder = os.path.join(source, bundle.FIRMWARE_DIR)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".uf2"):
            continue
        firmware = bundle.read_firmware(os.path.join(folder, name))
        board = firmware.layout.game_boards[0]
        with tempfile.TemporaryDirectory(prefix="bench-uf2-") as tmp:
            started = time.monotonic()
            out = os.path.join(tmp, "out.uf2")
            made = bundle.make(
                source,
                os.path.join(folder, name),
                board,
                "forced",
                firmware.layout.build == "RPI_PICO_W",
                out,
                say=lambda text: None,
            )
            seconds = time.monotonic() - started
            with open(out, "rb") as f:
                blocks = uf2.parse(f.read())
        pages = len(blocks)
        sectors = len({b.address // fs_image.BLOCK for b in blocks})
        print(
            "%s + game: %d bytes (%d UF2 blocks), made in %.2f s; writing it: about %.0f s (max %.0f s)"
            % (name, made.size, made.blocks, seconds, _write_time(pages, sectors, 0), _write_time(pages, sectors, 1))
        )
    if not os.path.isdir(folder):
        print(
            "(no official firmware in %s: whole-file figures skipped; the file is that UF2 plus the part above)"
            % bundle.FIRMWARE_DIR
        )
    _chip_boot(source)


def _chip_boot(source):
    """Emulated time from power-on to the menu on a flash holding only the Pico UF2."""
    from host_tools.simulator import chip as sim_chip
    from host_tools.simulator import chip_image
    from host_tools.simulator.screen import screen_lines

    firmware = chip_image.find_file(chip_image.FIRMWARE_NAME)
    try:
        sim_chip.node_command()
    except sim_chip.ChipError as exc:
        print("(emulated Pico not available: %s)" % exc)
        return
    for name in (chip_image.FIRMWARE_NAME, chip_image.BOOTROM_NAME):
        if chip_image.find_file(name) is None:
            print("(emulated Pico: not run, %s not found: %s)" % (name, chip_image.fetch_hint(name)))
            return
    with tempfile.TemporaryDirectory(prefix="bench-uf2-chip-") as tmp:
        out, image = os.path.join(tmp, "game.uf2"), os.path.join(tmp, "flash.bin")
        bundle.make(source, firmware, "pico", "forced", False, out, say=lambda text: None)
        chip_image.prepare_image(image, firmware=out, fresh=True)
        device = sim_chip.ChipDevice(image)
        started = time.monotonic()
        try:
            while device.clock_ms < 20000:
                device.run_to_clock(device.clock_ms + 50)
                lines = screen_lines(device.oled_pixels())
                if lines and lines[0].startswith("Setup"):
                    break
        finally:
            device.close()
        print(
            "emulated Pico (rp2040js), flash holding only the UF2: menu shown %.0f ms after power-on (50 ms steps), %.1f s wall"
            % (device.clock_ms, time.monotonic() - started)
        )
