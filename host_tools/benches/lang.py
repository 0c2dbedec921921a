"""Languages: what each catalog and the fonts cost on the flash and on the heap.

Flash: each catalog (firmware/lang_*.py) and the two fonts as flash and uf2 compile them
for the RP2040 (armv6m .mpy), in bytes and 4 KiB littlefs blocks. Then every board's free
flash as uf2 fills it (its table, and the spread and Zoo tables where they fit), with
English alone (``make flash LANG=en``) and with all the languages. Heap: the unix port
running the tree ``flash`` builds for the simulator (bytecode .mpy) at the Pico's heap;
free heap after ``lang.use(code)`` for each language, against English's (the texts of
the language in use are the only ones held).
"""

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing import bundle, fs_image, uf2
from host_tools.simulator import device_tree, unix_port

_BLOCK = 4096
_FONTS = ("/ui/font.mpy", "/ui/draw.mpy")  # the compact font, the 8x8 heading font

_HEAP_SCRIPT = """
import gc, sys, lang
gc.collect()
free = ["none:%d" % gc.mem_free()]
for code in sys.argv[1:]:
    lang.use(code)
    gc.collect()
    free.append("%s:%d" % (code, gc.mem_free()))
print(" ".join(free))
"""


def _blocks(size):
    n = (size + _BLOCK - 1) // _BLOCK
    return "%d block%s" % (n, "" if n == 1 else "s")


def _flash_costs():
    files = flash_build.build(host_tools.REPO, flash_build.find_mpy_cross(), "armv6m", "pico", "forced")
    by_path = {f.path: len(f.data) for f in files}
    catalogs = sorted(path for path in by_path if path.startswith("/lang_"))
    parts = ["%s %d B (%s)" % (path[1:], by_path[path], _blocks(by_path[path])) for path in catalogs]
    print("catalogs on the flash (armv6m .mpy): " + ", ".join(parts))
    print(
        "fonts on the flash (armv6m .mpy, code and glyphs): "
        + ", ".join("%s %d B (%s)" % (p[1:], by_path[p], _blocks(by_path[p])) for p in _FONTS)
    )


def _free_flash():
    host_tools.use_firmware()
    import rules

    from host_tools.solver import cache

    for layout, variant, board in (
        (uf2.LAYOUTS[0], "exact", "pico"),
        (uf2.LAYOUTS[1], "compact", "pico"),
        (uf2.LAYOUTS[2], "exact", "pico2"),
    ):
        path = cache.table(rules.make_ruleset(), variant)
        with open(path, "rb") as f:
            table = flash_build.DeviceFile("/strategy-forced.bin", f.read(), path)
        arch = next(iter(layout.families.values()))
        cells = []
        for langs, what in (((), "English alone"), (None, "all languages")):
            files = bundle.fill(host_tools.REPO, arch, board, "forced", table, layout.block_count, langs=langs)[0]
            free = fs_image.build(files, layout.block_count)[2]
            extra = [f.path.lstrip("/") for f in files if f.path.endswith(".bin") and f is not table]
            cells.append("%s %d KiB (tables: %s)" % (what, free // 1024, ", ".join([variant] + extra)))
        print("flash free on %s (board %s): %s" % (layout.build, board, "; ".join(cells)))


def _heap():
    from host_tools import texts

    device_tree.sync()
    proc = host_tools.run_micropython(
        ["-c", _HEAP_SCRIPT] + texts.codes(), heap=unix_port.DEVICE_HEAP, extra_path=(device_tree.FOLDER,)
    )
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip())
    free = dict(word.split(":") for word in proc.stdout.split())
    before = int(free.pop("none"))
    print(
        "heap the language in use holds (unix port, the Pico's heap, the simulator's .mpy tree; "
        "free after import lang %d B): "
        % before
        + ", ".join("%s %d B" % (code, before - int(n)) for code, n in free.items())
    )


def run():
    _flash_costs()
    _free_flash()
    _heap()
