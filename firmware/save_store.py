"""Power-fail-safe saves: a compact encoding, a checked file frame and two rotating slots.

A ``Store`` keeps one value (a plain structure of None/bool/int/str/bytes/list/dict) under
a base path. Each save writes ``<base>.tmp`` completely, flushes and closes it, then
``rename``s it over the OLDER of two slot files ``<base>.a`` / ``<base>.b`` (atomic on
littlefs). The newer slot is never touched, so a power cut at any moment leaves the last
or the previous save loadable. Every slot file carries a magic, format version, sequence
number, length and CRC-32; ``load`` returns the newest valid slot. A store may also be
given a ``check`` of the value's shape: a slot whose intact frame holds the wrong contents
counts as damaged like a bad CRC, so the older slot is used and the next save never
overwrites that older slot. The filesystem is injected (``open/rename/remove/mkdir``
like ``os``), the real one by default. Format: docs/formats.md.
"""

import os

from micropython import const

MAGIC = b"YZ"
VERSION = 1
DATA_DIR = "data"  # the folder at the flash root holding every store (host_tools pull copies it)
SUFFIXES = (".a", ".b", ".tmp", ".a.bad", ".b.bad")  # what a store's files end with
_HEADER = const(12)  # magic 2, version 1, reserved 1, sequence 4, payload length 4
_TRAILER = const(4)  # CRC-32 of header + payload, little-endian
_MAX_FILE = const(16384)  # bigger files are damage, not saves: never read them into RAM
_MAX_DEPTH = const(16)  # nesting limit while decoding, keeps a hostile file off the C stack
_INT_LIMIT = 1 << 63  # ints are saved within 64 bits (zigzag varint of at most 10 bytes)
_ENOENT = const(2)
_ENOTDIR = const(20)  # a path through something that is not a folder (``data`` a file)
_ENOSPC = const(28)  # littlefs reports a full disk as OSError(28) on write, close or rename

# Reasons a SaveError carries (plain strings so a screen can show them directly).
TRUNCATED = "truncated"
CORRUPT = "corrupt"
UNKNOWN_VERSION = "version"
SHAPE = "bad contents"  # an intact frame holding a value of the wrong shape
FULL = "full"
IO = "io error"
UNSAVABLE = "unsavable"  # a value beyond the encoding or the 16 KiB frame (save_bounds.py keeps saves within)
NO_MEMORY = "no memory"  # too little RAM to encode it now


def why(reason):
    """A reason above as the catalog key that words it for players (lang_en.py ``why_``)."""
    return "why_" + reason.replace(" ", "_")


class SaveError(Exception):
    """A save could not be read or written; ``reason`` is one of the constants above."""

    def __init__(self, reason, path=""):
        super().__init__(reason, path)
        self.reason = reason
        self.path = path


# --- encoding -------------------------------------------------------------------------
# Tags: 0x00-0x3F small int (tag - 1, so -1..62: card boxes and dice are one byte),
# 0x40-0x5F short str (length in the tag), 0x60-0x6F short list, 0x70-0x77 short dict,
# 0xF0 None, 0xF1 False, 0xF2 True, then a varint length/value follows:
# 0xF3 int (zigzag), 0xF4 str, 0xF5 bytes, 0xF6 list, 0xF7 dict.
_T_STR = const(0x40)
_T_LIST = const(0x60)
_T_DICT = const(0x70)
_T_NONE = const(0xF0)
_T_FALSE = const(0xF1)
_T_TRUE = const(0xF2)
_T_INT = const(0xF3)
_T_LSTR = const(0xF4)
_T_BYTES = const(0xF5)
_T_LLIST = const(0xF6)
_T_LDICT = const(0xF7)
_SHORT_STR = const(32)  # lengths below these go in the tag itself
_SHORT_LIST = const(16)
_SHORT_DICT = const(8)


def _put_varint(out, n):
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


def _put_size(out, n, short_tag, short_limit, long_tag):
    """A str/list/dict header: the size in the tag when below ``short_limit``, else
    ``long_tag`` and the size as a varint."""
    if n < short_limit:
        out.append(short_tag + n)
    else:
        out.append(long_tag)
        _put_varint(out, n)


def _put(out, value, depth):
    if depth > _MAX_DEPTH:
        raise ValueError("nested too deep")
    if value is None:
        out.append(_T_NONE)
    elif value is True:
        out.append(_T_TRUE)
    elif value is False:
        out.append(_T_FALSE)
    elif isinstance(value, int):
        if -1 <= value <= 62:
            out.append(value + 1)
        else:
            if not -_INT_LIMIT <= value < _INT_LIMIT:
                raise ValueError("int beyond 64 bits")
            out.append(_T_INT)
            _put_varint(out, value * 2 if value >= 0 else -value * 2 - 1)
    elif isinstance(value, str):
        raw = value.encode("utf-8")
        _put_size(out, len(raw), _T_STR, _SHORT_STR, _T_LSTR)
        out.extend(raw)
    elif isinstance(value, (bytes, bytearray)):
        out.append(_T_BYTES)
        _put_varint(out, len(value))
        out.extend(value)
    elif isinstance(value, (list, tuple)):
        _put_size(out, len(value), _T_LIST, _SHORT_LIST, _T_LLIST)
        for item in value:
            _put(out, item, depth + 1)
    elif isinstance(value, dict):
        _put_size(out, len(value), _T_DICT, _SHORT_DICT, _T_LDICT)
        for key in value:
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise TypeError("dict keys must be str or int")
            _put(out, key, depth + 1)
            _put(out, value[key], depth + 1)
    else:
        raise TypeError("cannot save %s" % type(value).__name__)


def encode(value):
    """The compact encoding of ``value`` as bytes (tuples come back as lists)."""
    out = bytearray()
    _put(out, value, 0)
    return bytes(out)


class _Reader:
    """Walks an encoded payload; every malformation becomes SaveError(CORRUPT)."""

    def __init__(self, data):
        self.data = data
        self.pos = 0

    def byte(self):
        if self.pos >= len(self.data):
            raise SaveError(CORRUPT)
        self.pos += 1
        return self.data[self.pos - 1]

    def varint(self):
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                return n
            shift += 7
            if shift > 63:
                raise SaveError(CORRUPT)

    def count(self):
        # Each item takes at least one byte, so a count beyond what is left is damage.
        n = self.varint()
        if n > len(self.data) - self.pos:
            raise SaveError(CORRUPT)
        return n

    def span(self, n):
        if n > len(self.data) - self.pos:
            raise SaveError(CORRUPT)
        self.pos += n
        return self.data[self.pos - n : self.pos]

    def text(self, n):
        try:
            return str(self.span(n), "utf-8")
        except UnicodeError:
            raise SaveError(CORRUPT)

    def value(self, depth):
        if depth > _MAX_DEPTH:
            raise SaveError(CORRUPT)
        tag = self.byte()
        if tag < _T_STR:
            return tag - 1
        if tag < _T_LIST:
            return self.text(tag - _T_STR)
        if tag < _T_DICT:
            return self.items(tag - _T_LIST, depth)
        if tag < _T_DICT + _SHORT_DICT:
            return self.pairs(tag - _T_DICT, depth)
        if tag == _T_NONE:
            return None
        if tag == _T_FALSE:
            return False
        if tag == _T_TRUE:
            return True
        if tag == _T_INT:
            n = self.varint()
            return -((n + 1) >> 1) if n & 1 else n >> 1
        if tag == _T_LSTR:
            return self.text(self.count())
        if tag == _T_BYTES:
            return bytes(self.span(self.count()))
        if tag == _T_LLIST:
            return self.items(self.count(), depth)
        if tag == _T_LDICT:
            return self.pairs(self.count(), depth)
        raise SaveError(CORRUPT)

    def items(self, n, depth):
        result = [None] * n  # a loop, not a comprehension: that is a closure on the heap
        for i in range(n):
            result[i] = self.value(depth + 1)
        return result

    def pairs(self, n, depth):
        result = {}
        for _ in range(n):
            key = self.value(depth + 1)
            if not isinstance(key, (str, int)) or isinstance(key, bool):
                raise SaveError(CORRUPT)
            result[key] = self.value(depth + 1)
        return result


def decode(data):
    """Inverse of ``encode``; raises SaveError(CORRUPT) for anything malformed."""
    reader = _Reader(data)
    value = reader.value(0)
    if reader.pos != len(data):
        raise SaveError(CORRUPT)
    return value


# --- checksum -------------------------------------------------------------------------
# CRC-32 (IEEE, as zlib/binascii.crc32) a nibble at a time, the 32-bit register split in
# two 16-bit halves so every step stays a small int (no heap) on a 32-bit port.
# binascii.crc32 is absent from some builds, so the firmware never relies on it.
# fmt: off
_CRC_HI = (0x0000, 0x1DB7, 0x3B6E, 0x26D9, 0x76DC, 0x6B6B, 0x4DB2, 0x5005,
           0xEDB8, 0xF00F, 0xD6D6, 0xCB61, 0x9B64, 0x86D3, 0xA00A, 0xBDBD)
_CRC_LO = (0x0000, 0x1064, 0x20C8, 0x30AC, 0x4190, 0x51F4, 0x6158, 0x713C,
           0x8320, 0x9344, 0xA3E8, 0xB38C, 0xC2B0, 0xD2D4, 0xE278, 0xF21C)
# fmt: on


def crc32(data, start=0, end=-1):
    """CRC-32 of ``data[start:end]`` as 4 little-endian bytes."""
    if end < 0:
        end = len(data)
    hi = lo = 0xFFFF
    table_hi = _CRC_HI
    table_lo = _CRC_LO
    for i in range(start, end):
        b = data[i]
        n = (lo ^ b) & 0xF  # low nibble first (reflected CRC)
        lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ table_lo[n]
        hi = (hi >> 4) ^ table_hi[n]
        n = (lo ^ (b >> 4)) & 0xF
        lo = ((lo >> 4) | ((hi & 0xF) << 12)) ^ table_lo[n]
        hi = (hi >> 4) ^ table_hi[n]
    lo ^= 0xFFFF
    hi ^= 0xFFFF
    return bytes((lo & 0xFF, lo >> 8, hi & 0xFF, hi >> 8))


# --- file frame -----------------------------------------------------------------------
def _u32(data, at):
    return data[at] | data[at + 1] << 8 | data[at + 2] << 16 | data[at + 3] << 24


def _put_u32(out, n):
    out.extend(bytes((n & 0xFF, (n >> 8) & 0xFF, (n >> 16) & 0xFF, (n >> 24) & 0xFF)))


def pack(value, seq):
    """The complete file for ``value`` with sequence number ``seq`` (0..2**32-1);
    ValueError when it would exceed the 16 KiB a load accepts."""
    payload = encode(value)
    if _HEADER + len(payload) + _TRAILER > _MAX_FILE:
        raise ValueError("save larger than 16 KiB")
    out = bytearray(MAGIC)
    out.append(VERSION)
    out.append(0)
    _put_u32(out, seq)
    _put_u32(out, len(payload))
    out.extend(payload)
    out.extend(crc32(out))
    return bytes(out)


def unpack(data):
    """``(seq, value)`` from a file's bytes; SaveError(TRUNCATED/CORRUPT/UNKNOWN_VERSION)."""
    seq = check(data)
    return seq, decode(memoryview(data)[_HEADER : len(data) - _TRAILER])


def check(data):
    """The sequence number of an intact file (frame and CRC); SaveError like ``unpack``."""
    head = min(len(data), 2)
    if bytes(data[0:head]) != MAGIC[0:head]:
        raise SaveError(CORRUPT)
    if len(data) < 3:
        raise SaveError(TRUNCATED)
    if data[2] != VERSION:
        raise SaveError(UNKNOWN_VERSION)
    if len(data) < _HEADER:
        raise SaveError(TRUNCATED)
    length = _u32(data, 8)
    end = _HEADER + length
    if len(data) < end + _TRAILER:
        raise SaveError(TRUNCATED)
    if len(data) > end + _TRAILER or data[3] != 0:
        raise SaveError(CORRUPT)
    if crc32(data, 0, end) != bytes(data[end : end + _TRAILER]):
        raise SaveError(CORRUPT)
    return _u32(data, 4)


# --- filesystem -----------------------------------------------------------------------
def _errno(exc):
    return exc.args[0] if exc.args else None


class Store:
    """One value saved safely under ``base`` (e.g. ``"data/game"``); see module docstring."""

    def __init__(self, base, fs=None, check=None):
        self.base = base
        # check(value) -> True when a loaded value has the shape its readers rely on (a
        # total function: False, never an exception, for any decoded value).
        self.check = check
        # The real filesystem is ``os`` (rename/remove/mkdir) plus the builtin ``open``.
        self.fs = fs if fs is not None else os
        self._open = fs.open if fs is not None else open
        self.slots = (base + ".a", base + ".b")
        self.temp = base + ".tmp"
        self.damaged = []  # [(path, reason)] found by the last load
        self.repaired = []  # obstacles ``repair`` moved aside (for a message; the caller clears it)
        self.seq = 0  # sequence number of the newest valid slot, 0 when none
        self._newest = -1  # index of that slot, -1 when none
        self._scanned = False
        self._ready = -1  # the sequence number the last ``prepare`` packed

    def _read(self, path):
        # Header first, then exactly the length it declares (+1 to notice trailing bytes):
        # no 16 KiB buffer on a heap of 190 KiB.
        f = self._open(path, "rb")
        try:
            head = f.read(_HEADER)
            if len(head) < _HEADER or head[0:2] != MAGIC or head[2] != VERSION:
                return head  # unpack names the damage
            want = _u32(head, 8) + _TRAILER + 1
            if _HEADER + want > _MAX_FILE + 1:
                raise SaveError(CORRUPT, path)
            return head + f.read(want)
        finally:
            f.close()

    def load(self):
        """The newest valid value, None when nothing was ever saved.

        Raises SaveError (reason of the first damaged slot) when slot files exist but
        none is valid; the caller then shows the reason, calls ``set_aside()`` and starts
        fresh. A damaged slot next to a valid one is listed in ``damaged`` only.
        """
        self.damaged = []
        self.seq = 0
        self._newest = -1
        frames = []  # (seq, slot, bytes) of intact files; only the newest gets decoded
        for i in range(2):
            path = self.slots[i]
            try:
                data = self._read(path)
                frames.append((check(data), i, data))
            except OSError as exc:
                # ENOTDIR: the folder is a file, so nothing was saved here (save repairs it)
                if _errno(exc) not in (_ENOENT, _ENOTDIR):
                    self.damaged.append((path, IO))
            except SaveError as err:
                self.damaged.append((path, err.reason))
        if len(frames) == 2 and frames[1][0] > frames[0][0]:
            frames.reverse()
        best = None
        for seq, i, data in frames:
            try:
                value = decode(memoryview(data)[_HEADER : len(data) - _TRAILER])
                if self.check is not None and not self.check(value):
                    raise SaveError(SHAPE)
            except SaveError as err:  # an intact frame around a bad payload or shape
                self.damaged.append((self.slots[i], err.reason))
                continue
            best = value
            self.seq = seq
            self._newest = i
            break
        if self._newest < 0 and frames:
            # Intact frames, all with bad contents: the next save must still outnumber them,
            # or the newer bad slot would win the next load over the fresh save.
            self.seq = max(frames[0][0], frames[-1][0])
        self._scanned = True
        if self._newest < 0 and self.damaged:
            path, reason = self.damaged[0]
            raise SaveError(reason, path)
        return best

    def prepare(self, value):
        """The file ``save`` writes for ``value`` next: packed in one frame, written in
        another. SaveError(UNSAVABLE or NO_MEMORY) when it cannot be packed."""
        if not self._scanned:
            try:
                self.load()
            except SaveError:
                pass  # no valid slot: both may be overwritten
        try:
            data = pack(value, self.seq + 1)
        except (ValueError, TypeError):  # beyond the encoding or the frame: nothing written
            raise SaveError(UNSAVABLE, self.base)
        except MemoryError:
            raise SaveError(NO_MEMORY, self.base)
        self._ready = self.seq + 1
        return data

    def save(self, value, data=None):
        """Saves ``value``; returns the bytes written. Every failure is a SaveError (FULL,
        IO, UNSAVABLE or NO_MEMORY) that leaves the previous save valid and the temp file
        removed, so the caller may always go on unsaved. A write that fails for another
        reason than a full disk repairs the store's paths (``repair``) and tries once more.
        ``data``: ``prepare(value)``'s file, if no save came between (else packed again)."""
        if not data or self._ready != self.seq + 1:
            data = self.prepare(value)
        try:
            target = self._write(data)
        except OSError as exc:
            full = _errno(exc) == _ENOSPC
            try:
                fixed = not full and self.repair(True)
            except OSError:
                fixed = False  # the flash refuses even the repair: the save fails as it was
            if not fixed:
                self._drop_temp()
                raise SaveError(FULL if full else IO, self.temp)
            try:
                target = self._write(data)
            except OSError as again:
                self._drop_temp()
                raise SaveError(FULL if _errno(again) == _ENOSPC else IO, self.temp)
        self.seq += 1
        self._newest = target
        self.damaged = [d for d in self.damaged if d[0] != self.slots[target]]
        return len(data)

    def _write(self, data):
        """Temp file, then renamed over the slot not holding the newest save; its index."""
        target = 1 - self._newest if self._newest >= 0 else 0
        self._write_temp(data)
        for path, _reason in self.damaged:
            if path == self.slots[target]:
                try:
                    self.set_aside(path)
                except OSError:
                    pass  # cannot be kept: the rename below replaces the damaged copy
        self.fs.rename(self.temp, self.slots[target])
        return target

    def _write_temp(self, data):
        try:
            f = self._open(self.temp, "wb")
        except OSError as exc:
            if _errno(exc) != _ENOENT or "/" not in self.base:
                raise
            self.fs.mkdir(self.base[: self.base.rfind("/")])  # first save: make the folder
            f = self._open(self.temp, "wb")
        try:
            f.write(data)
            f.flush()
        finally:
            f.close()

    def _drop_temp(self):
        try:
            self.fs.remove(self.temp)
        except OSError:
            pass  # never created, or the disk refuses even this: the next save truncates it

    def repair(self, create=False):
        """Moves what stops this store from saving aside as ``*.bad`` (save_repair)."""
        import save_repair  # rare (damage found): loaded only then

        return save_repair.repair(self, create)

    def set_aside(self, path=None):
        """Renames every damaged slot to ``<slot>.bad`` (kept for inspection); returns
        the new paths. After this the store starts fresh. With ``path``: that one only,
        an OSError when it cannot be moved."""
        import save_repair  # rare (damage found): loaded only then

        if path is not None:
            return save_repair.aside(self.fs, path)
        moved = []
        for path, _reason in self.damaged:
            try:
                moved.append(save_repair.aside(self.fs, path))
            except OSError:
                pass  # unreadable and unmovable: the next save overwrites it instead
        self.damaged = []
        return moved

    def drop_older(self):
        """Removes the slot not holding the newest save, if any: room on a full flash that
        costs nothing a load needs (the newest is what it returns)."""
        if self._newest >= 0:
            try:
                self.fs.remove(self.slots[1 - self._newest])
            except OSError:
                pass  # already absent

    def clear(self):
        """Forgets the value (e.g. a finished game): removes the older slot first, so a
        cut in between leaves the last save, never an older one."""
        if not self._scanned:
            try:
                self.load()
            except SaveError:
                pass  # nothing valid to protect
        order = (1 - self._newest, self._newest) if self._newest >= 0 else (0, 1)
        for i in order:
            try:
                self.fs.remove(self.slots[i])
            except OSError:
                pass  # already absent
        # seq stays: should a slot survive its removal, later saves still outnumber it.
        self._newest = -1
