"""One-file install (``host_tools uf2``): filesystem image size per board, build time, and
the time a Pico takes to write the file (an estimate from flash datasheet figures).

The image is the checkout's game with the table each board takes (exact; compact on the
Pico W). With an official firmware in build/micropython/ (the ``uf2`` default) the whole
file is built and timed too. Write time: every 4 KiB sector the file touches is erased and
every 256-byte page programmed by the bootrom; W25Q16JV (the Pico's flash) typical 45 ms
per sector erase and 0.4 ms per page program (max 400 ms and 3 ms), USB transfer overlapped.
"""
import os
import statistics
import tempfile
import time

import host_tools
from host_tools.flashing import bundle, fs_image, uf2

SECTOR_ERASE_S = (0.045, 0.400)  # W25Q16JV datasheet: typical, max
PAGE_PROGRAM_S = (0.0004, 0.003)


def _write_time(pages, sectors, column):
    return sectors * SECTOR_ERASE_S[column] + pages * PAGE_PROGRAM_S[column]


def run():
    host_tools.use_firmware()
    import rules

    from host_tools.solver import cache

    source = host_tools.REPO
    for layout, variant, board in ((uf2.LAYOUTS[0], "exact", "pico"), (uf2.LAYOUTS[1], "compact", "pico"), (uf2.LAYOUTS[2], "exact", "pico2")):
        path = cache.table(rules.make_ruleset(), variant)
        with open(path, "rb") as f:
            from host_tools.flashing.build import DeviceFile

            table = DeviceFile("/strategy-forced.bin", f.read(), path)
        arch = next(iter(layout.families.values()))
        files = bundle.device_files(source, arch, board, "forced", table)
        times = []
        for _ in range(3):
            started = time.monotonic()
            _image, touched, free = fs_image.build(files, layout.block_count)
            times.append(time.monotonic() - started)
        sectors = len(touched | {0, 1})
        pages = sectors * fs_image.BLOCK // uf2.PAYLOAD
        print("%-10s %s table: filesystem part %d bytes of UF2 (%d sectors, %d KiB free on the device), image built in median %.2f s;"
              " writing it: about %.0f s (max %.0f s)" % (layout.build, variant, pages * uf2.BLOCK, sectors, free // 1024, statistics.median(times),
                                                        _write_time(pages, sectors, 0), _write_time(pages, sectors, 1)))
    folder = os.path.join(source, bundle.FIRMWARE_DIR)
    for name in sorted(os.listdir(folder)) if os.path.isdir(folder) else []:
        if not name.endswith(".uf2"):
            continue
        firmware = bundle.read_firmware(os.path.join(folder, name))
        board = firmware.layout.game_boards[0]
        with tempfile.TemporaryDirectory(prefix="bench-uf2-") as tmp:
            started = time.monotonic()
            out = os.path.join(tmp, "out.uf2")
            made = bundle.make(source, os.path.join(folder, name), board, "forced", firmware.layout.build == "RPI_PICO_W", out, say=lambda text: None)
            seconds = time.monotonic() - started
            with open(out, "rb") as f:
                blocks = uf2.parse(f.read())
        pages = len(blocks)
        sectors = len({b.address // fs_image.BLOCK for b in blocks})
        print("%s + game: %d bytes (%d UF2 blocks), made in %.2f s; writing it: about %.0f s (max %.0f s)"
              % (name, made.size, made.blocks, seconds, _write_time(pages, sectors, 0), _write_time(pages, sectors, 1)))
    if not os.path.isdir(folder):
        print("(no official firmware in %s: whole-file figures skipped; the file is that UF2 plus the part above)" % bundle.FIRMWARE_DIR)
