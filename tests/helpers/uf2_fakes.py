"""Firmware UF2s shaped like the official MicroPython builds, for the tests of ``uf2`` and
of the release's downloads: any board, any version, damaged on purpose."""

import os
import struct

from host_tools.flashing import uf2


def firmware_uf2(board="pico", family=uf2.RP2040, program="MicroPython", version="v1.28.0", pages=24, extra=()):
    """A firmware UF2 shaped like the official ones: code from 0x10000000 with the binary
    info marker in the first sector, ID_AND_STRING entries for program, version, board."""
    image = bytearray(os.urandom(pages * uf2.PAYLOAD))
    base = uf2.FLASH_BASE
    strings = {0x02031C86: program, 0x11A9BC3A: version, 0xB63CFFBB: board}
    entries, at_entry, at_text = [], 0x500, 0x700
    for ident, text in strings.items():
        raw = text.encode() + b"\0"
        image[at_text : at_text + len(raw)] = raw
        struct.pack_into("<HHII", image, at_entry, 6, 0x5052, ident, base + at_text)
        entries.append(base + at_entry)
        at_entry += 12
        at_text += len(raw)
    struct.pack_into("<%dI" % len(entries), image, 0x400, *entries)
    struct.pack_into("<3I", image, 0x300, 0, 0, 0)  # an empty RAM mapping table
    struct.pack_into(
        "<5I", image, 0x1D4, 0x7188EBF2, base + 0x400, base + 0x400 + 4 * len(entries), base + 0x300, 0xE71AA390
    )
    addresses = [base + i * uf2.PAYLOAD for i in range(pages)] + list(extra)
    out = bytearray()
    for number, address in enumerate(addresses):
        offset = address - base
        payload = bytes(image[offset : offset + uf2.PAYLOAD]) if offset < len(image) else os.urandom(uf2.PAYLOAD)
        out += uf2._pack(uf2.FLAG_FAMILY_ID, address, payload, number, len(addresses), family)
    return bytes(out)


def table_file(variant, size):
    """A stand-in strategy table: the header's variant byte and ``size`` bytes."""
    data = bytearray(os.urandom(size))
    data[:4] = b"YZOT"
    data[5] = {"exact": 1, "compact": 2}[variant]
    return bytes(data)
