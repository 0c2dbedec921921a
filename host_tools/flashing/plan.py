"""What one ``flash`` does to a device (``Plan``): the files to copy, to skip and to
remove, and the space checks against the device's free blocks, from the device's
manifest (``parse_manifest``, untrusted input) and the files of this build; and the
manifest flash writes (``manifest_text``)."""

import posixpath

import host_tools
from host_tools.flashing import build as flash_build
from host_tools.flashing import untrusted
from host_tools.flashing.build import BuildError
from host_tools.flashing.device import MANIFEST, STAGED

host_tools.use_firmware()
import save_store  # noqa: E402  (the firmware's own name for the folder of saves: never touched)

RESERVE_BYTES = 16 * 1024  # left free after flashing, for saves and records
# A table for the menu's other card (the Zoo table) is a bonus: it goes only when this
# much stays free for saves beside it (at least 100 KB for saves), so on a
# Pico W it does not eat the room the game's saves and records grow into.
MENU_TABLE_KEEP_BYTES = 100 * 1000


def keep_free_beside(path):
    """Bytes that must stay free once a table flash adds after the game's own (device
    ``path``) is on the flash: the spread table needs only the saves' reserve, a menu
    table (another card's strategy table) more."""
    return RESERVE_BYTES if _is_spread(path) else MENU_TABLE_KEEP_BYTES


class FlashError(Exception):
    """Stops the flash with one line for the user; nothing half-done is left behind."""


def parse_manifest(text, rejected=None):
    """{path: sha256} from /flash_manifest.txt (lines: path, sha256, size; tab-separated).

    The file comes from the device, so every line is checked: an absolute path of plain
    names, 64 hex digits, a size; anything else goes to ``rejected`` and is ignored."""
    entries = {}
    for line in (text or "").splitlines():
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        if (
            len(parts) == 3
            and untrusted.device_path_problem(parts[0]) is None
            and len(parts[1]) == 64
            and all(c in "0123456789abcdef" for c in parts[1])
            and parts[2].isdigit()
            and parts[2].isascii()
        ):
            entries[parts[0]] = parts[1]
        elif rejected is not None:
            rejected.append(line)
    return entries


def manifest_text(files):
    """The manifest flash writes; names that could forge lines are refused before."""
    for f in files:
        problem = untrusted.device_path_problem(f.path)
        if problem:
            raise BuildError("%s: a name flash cannot put on a device (%s)" % (untrusted.printable(f.path), problem))
    lines = ["# written by python -m host_tools flash: path, sha256, size"]
    lines += ["%s\t%s\t%d" % (f.path, f.sha256, len(f.data)) for f in files]
    return "\n".join(lines) + "\n"


def _is_table(path, pattern=flash_build.DEVICE_TABLE):
    head, tail = pattern.split("{rules}")
    return path.startswith(head) and path.endswith(tail) and "/" not in path[len(head) :]


def _is_spread(path):
    return _is_table(path, flash_build.DEVICE_SPREAD)


class Plan:
    """What one flash does: files to copy, to skip, to remove; space checks.

    Only files this firmware tree could have put there are ever removed: listed in the
    device's manifest with the hash they still have, not under data/, in a folder the
    tree has and with a suffix flash writes. ``pre_remove`` (leftover staged copies, and
    strategy tables about to be replaced when their space is needed) goes before the
    copy, the rest at the switch."""

    def __init__(self, files, table, sizes, hashes, old_manifest, extra_tables=()):
        self.files = files
        self.table = table
        # Tables for the menu's other card (the kids' Zoo table), after the main one and
        # only when they fit too; a note each when they do not.
        self.extra_tables = list(extra_tables)
        self.sizes = sizes
        self.hashes = hashes
        self.old = old_manifest
        self.table_note = None
        self.extra_notes = []

    def _could_be_ours(self, path):
        if path == MANIFEST or untrusted.device_path_problem(path):
            return False
        if path.strip("/").split("/")[0] == save_store.DATA_DIR:
            return False  # the game's saves and records: never flash's
        folders = {posixpath.dirname(f.path) for f in self.files} | {"/"}
        suffixes = {posixpath.splitext(f.path)[1] for f in self.files} | {".mpy", ".py", ".cfg", ".bin"}
        return posixpath.dirname(path) in folders and posixpath.splitext(path)[1] in suffixes

    def decide(self, block, free, total=None):
        blocks = lambda n: max(1, -(-n // block))  # littlefs: a file takes whole blocks
        kib = lambda b: b * block // 1024
        reserve = blocks(RESERVE_BYTES)
        copy = [f for f in self.files if self.hashes.get(f.path) != f.sha256]
        need = sum(blocks(len(f.data)) for f in copy) + 1  # + the manifest
        # + a block for each folder still to be made (littlefs: a folder takes a block)
        present = {posixpath.dirname(p) for p in self.sizes}
        need += len({posixpath.dirname(f.path) for f in copy} - present - {"/"})
        leftovers = sorted(p for p in self.sizes if p.endswith(STAGED) and self._could_be_ours(p[: -len(STAGED)]))
        mine = (
            {f.path for f in self.files}
            | ({self.table.path} if self.table else set())
            | {t.path for t in self.extra_tables}
        )
        flashed = [
            p
            for p in sorted(self.old)
            if p in self.sizes and self._could_be_ours(p) and self.hashes.get(p) == self.old[p]
        ]
        stale = [p for p in flashed if p not in mine]
        room = free // block - reserve + sum(blocks(self.sizes[p]) for p in leftovers)
        pre_remove = list(leftovers)
        spare = [p for p in stale if _is_table(p) or _is_spread(p)]  # old tables of other rules: going anyway
        while need > room and spare:
            path = spare.pop(0)
            pre_remove.append(path)
            room += blocks(self.sizes[path])
        if need > room:
            raise FlashError(
                "not enough space on the device: the new files need %d KiB, %d KiB are free and %d KiB must stay "
                "free for saves; remove files you added yourself (mpremote fs ls) and retry; nothing was changed"
                % (kib(need), free // 1024, kib(reserve))
            )
        ours = list(self.files)
        tables = ([self.table] if self.table is not None else []) + self.extra_tables
        for table in tables:  # the main table first, then the menu's other card's
            changed = self.hashes.get(table.path) != table.sha256
            table_need = blocks(len(table.data)) if changed else 0
            # blocks a new menu table must leave free beyond the reserve (one already on the
            # device stays: saves that grew since must not make a reflash drop it)
            keep_more = (
                0 if table is self.table or not changed else max(0, blocks(keep_free_beside(table.path)) - reserve)
            )
            candidates = spare + ([table.path] if changed and table.path in self.sizes else [])
            extra, more = [], room
            for path in candidates:
                if need + table_need + keep_more <= more:
                    break
                extra.append(path)
                more += blocks(self.sizes[path])
            if need + table_need + keep_more <= more:
                ours.append(table)
                pre_remove += extra
                spare = [p for p in spare if p not in extra]
                room = more
                need += table_need
                if changed:
                    copy.append(table)
            else:
                note = self._table_note(
                    table,
                    blocks,
                    kib,
                    reserve + keep_more,
                    room - need - keep_more,
                    None if total is None else total // block,
                )
                if table is self.table:
                    self.table_note = note
                else:
                    self.extra_notes.append(note)
        owned = {f.path for f in ours}
        remove = [
            p for p in flashed if p not in owned and p not in pre_remove
        ]  # with a table left out, its old copy too
        for f in ours:  # a stale foo.py would be imported instead of the new foo.mpy
            shadow = f.path[:-4] + ".py"
            if f.path.endswith(".mpy") and shadow in self.sizes and self._could_be_ours(shadow):
                remove.append(shadow)
        self.copy = sorted(copy, key=lambda f: (f.path == "/main.py", f.path))  # main.py last
        self.skip = [f for f in ours if f not in copy]
        self.pre_remove = pre_remove
        self.remove = sorted(set(remove))
        self.ours = ours

    def _table_note(self, table, blocks, kib, reserve, left, total_blocks):
        firmware = sum(blocks(len(f.data)) for f in self.files) + 1
        kind = "spread table" if _is_spread(table.path) else "strategy table"
        text = "%s %s (%d KiB) does not fit" % (kind, table.source, len(table.data) // 1024)
        if (
            kind == "strategy table"
            and total_blocks is not None
            and firmware + blocks(len(table.data)) + reserve > total_blocks
        ):
            return text + (
                " even on an empty flash of %d KiB: flashed without it; for a Pico W build the compact "
                "one: make table COMPACT=1, then make flash COMPACT=1" % kib(total_blocks)
            )
        return text + (
            " (%d KiB free after the firmware and the %d KiB kept for saves): flashed without it; files "
            "you added take the rest (mpremote fs ls)" % (max(0, kib(left)), kib(reserve))
        )
