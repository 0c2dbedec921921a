"""UF2 files for the Pico's BOOTSEL drive: read and check a MicroPython firmware UF2, tell
which board it is for, and write one UF2 holding that firmware plus a filesystem image.

UF2 (Microsoft's USB flashing format, as the RP2040/RP2350 bootrom reads it): 512-byte
blocks, each carrying up to 476 payload bytes for one flash address; the RP bootroms take
256-byte payloads at 256-aligned addresses and a family id that names the chip. The board
is read from the firmware's own pico-sdk "binary info" (the `pico_board` string every
MicroPython rp2 build carries), not from its file name.
"""

import struct

BLOCK = 512
PAYLOAD = 256  # what the RP bootroms program per UF2 block
# A UF2 of a 16 MiB flash (the largest RP2350 boards) is 32 MiB: a bigger file is not a
# firmware, and a read of /dev/zero stops there.
MAX_UF2_BYTES = 32 << 20
MAGIC_START0 = 0x0A324655
MAGIC_START1 = 0x9E5D5157
MAGIC_END = 0x0AB16F30
FLAG_NOT_MAIN_FLASH = 0x00000001
FLAG_FAMILY_ID = 0x00002000
FLASH_BASE = 0x10000000  # XIP flash on the RP2040 and RP2350

# UF2 family ids (the uf2 spec's uf2families.json, as the RP bootroms check them)
RP2040 = 0xE48BFF56
RP2350_ARM_S = 0xE48BFF59
RP2350_RISCV = 0xE48BFF5A
ABSOLUTE = 0xE48BFF57  # RP2350: any chip; picotool adds such a block for erratum RP2350-E10
FAMILY_NAMES = {RP2040: "RP2040", RP2350_ARM_S: "RP2350 (Arm)", RP2350_RISCV: "RP2350 (RISC-V)", ABSOLUTE: "absolute"}

# pico-sdk binary info (src/common/pico_binary_info): a marker pair in the first flash
# sector points at a list of entries; ID_AND_STRING entries carry the board and program.
_BI_MARKER_START = 0x7188EBF2
_BI_MARKER_END = 0xE71AA390
_BI_TYPE_ID_AND_STRING = 6
_BI_ID_PROGRAM_NAME = 0x02031C86
_BI_ID_PROGRAM_VERSION = 0x11A9BC3A
_BI_ID_PICO_BOARD = 0xB63CFFBB


class Layout:
    """Where one MicroPython board build keeps its filesystem, and what it runs."""

    def __init__(self, build, pico_board, families, flash_bytes, fs_bytes, game_boards, url):
        self.build = build  # MicroPython's board name (the UF2 on micropython.org)
        self.pico_board = pico_board  # pico-sdk PICO_BOARD, in the firmware's binary info
        self.families = families  # UF2 family id -> mpy-cross -march of that build
        self.flash_bytes = flash_bytes
        self.fs_bytes = fs_bytes
        self.fs_start = FLASH_BASE + flash_bytes - fs_bytes  # rp2_flash.c: storage at the end
        self.fs_end = FLASH_BASE + flash_bytes
        self.game_boards = game_boards  # modules in boards/ wired for this board
        self.url = url

    @property
    def block_count(self):
        return self.fs_bytes // FS_BLOCK


FS_BLOCK = 4096  # rp2.Flash block size (the flash's erase sector)
_RP2040_BOARDS = ("pico", "pico_sh1106", "pico_neopixel")

# Source: MicroPython v1.28.0 ports/rp2/boards/<BOARD>/mpconfigboard.h
# (MICROPY_HW_FLASH_STORAGE_BYTES) with the flash size of the board's pico-sdk header,
# storage placed at the end of flash (ports/rp2/rp2_flash.c). RPI_PICO checked against the
# official v1.28.0 UF2: code ends at 0x10052F00, os.statvfs('/') reports 352 x 4096 bytes.
LAYOUTS = (
    Layout(
        "RPI_PICO",
        "pico",
        {RP2040: "armv6m"},
        2 * 1024 * 1024,
        1408 * 1024,
        _RP2040_BOARDS,
        "https://micropython.org/download/RPI_PICO/",
    ),
    Layout(
        "RPI_PICO_W",
        "pico_w",
        {RP2040: "armv6m"},
        2 * 1024 * 1024,
        848 * 1024,
        _RP2040_BOARDS,
        "https://micropython.org/download/RPI_PICO_W/",
    ),
    Layout(
        "RPI_PICO2",
        "pico2",
        {RP2350_ARM_S: "armv7emsp", RP2350_RISCV: "rv32imc"},
        4 * 1024 * 1024,
        3 * 1024 * 1024,
        ("pico2",),
        "https://micropython.org/download/RPI_PICO2/",
    ),
)


class Uf2Error(Exception):
    """The UF2 cannot be used; the message is one line for the user."""


class Block:
    """One UF2 block: flags, target address, payload, family id (or None)."""

    def __init__(self, flags, address, payload, family, number=0, count=1):
        self.flags = flags
        self.address = address
        self.payload = payload
        self.family = family
        self.number = number
        self.count = count


def parse(data, name="the UF2"):
    """Blocks of a UF2 file, checked for damage: magic numbers, sizes, numbering."""
    if not data:
        raise Uf2Error("%s is empty" % name)
    if len(data) % BLOCK:
        raise Uf2Error(
            "%s is damaged: %d bytes is not a whole number of 512-byte UF2 blocks (truncated?)" % (name, len(data))
        )
    blocks = []
    for index in range(len(data) // BLOCK):
        at = index * BLOCK
        start0, start1, flags, address, size, number, count, family = struct.unpack_from("<8I", data, at)
        (end,) = struct.unpack_from("<I", data, at + BLOCK - 4)
        if start0 != MAGIC_START0 or start1 != MAGIC_START1 or end != MAGIC_END:
            raise Uf2Error("%s is damaged: block %d (byte %d) has no UF2 magic numbers" % (name, index, at))
        if size > 476 or number >= count:
            raise Uf2Error(
                "%s is damaged: block %d says payload %d bytes, number %d of %d" % (name, index, size, number, count)
            )
        blocks.append(
            Block(
                flags,
                address,
                bytes(data[at + 32 : at + 32 + size]),
                family if flags & FLAG_FAMILY_ID else None,
                number,
                count,
            )
        )
    _check_numbering(blocks, name)
    return blocks


def _check_numbering(blocks, name):
    """Each family's blocks are numbered 0..count-1 once each (the bootrom counts them to
    know the download is complete); a missing or repeated number means a damaged file."""
    groups = {}
    for block in blocks:
        if block.family != ABSOLUTE:  # picotool's E10 block says "1 of 2" on purpose
            groups.setdefault(block.family, []).append(block)
    for family, group in groups.items():
        count = group[0].count
        numbers = sorted(b.number for b in group)
        if any(b.count != count for b in group) or numbers != list(range(count)):
            raise Uf2Error(
                "%s is damaged: the %s blocks are numbered %s of %d (blocks missing or repeated)"
                % (name, FAMILY_NAMES.get(family, "family %s" % family), _ranges(numbers), count)
            )


def _ranges(numbers):
    if not numbers:
        return "none"
    return "%d..%d (%d blocks)" % (numbers[0], numbers[-1], len(numbers))


class Firmware:
    """A MicroPython firmware UF2 for one board: its blocks, layout and binary info."""

    def __init__(self, blocks, layout, family, program, version):
        self.blocks = blocks  # every block, in file order
        self.layout = layout
        self.family = family
        self.program = program
        self.version = version
        self.arch = layout.families[family]
        main = [b for b in blocks if b.family == family]
        self.code_end = max(b.address + len(b.payload) for b in main)


def _flash_image(blocks):
    """{address: payload} of a family's flash blocks, refusing overlaps and odd blocks."""
    pages = {}
    for block in blocks:
        if block.address % PAYLOAD or len(block.payload) != PAYLOAD:
            raise Uf2Error(
                "block for 0x%08X carries %d bytes; the Pico's bootrom takes 256-byte pages at 256-byte boundaries"
                % (block.address, len(block.payload))
            )
        if block.address in pages:
            raise Uf2Error("two blocks write flash address 0x%08X (damaged or concatenated UF2)" % block.address)
        pages[block.address] = block.payload
    return pages


def _reader(pages):
    def read(address, size):
        out = bytearray()
        while len(out) < size:
            at = address + len(out)
            page = pages.get(at - at % PAYLOAD)
            if page is None:
                raise Uf2Error("binary info points at 0x%08X, which the UF2 does not hold" % at)
            out += page[at % PAYLOAD : at % PAYLOAD + size - len(out)]
        return bytes(out)

    return read


def binary_info(pages):
    """{id: string} of the pico-sdk binary info ID_AND_STRING entries ({} when absent)."""
    read = _reader(pages)
    head = b"".join(pages.get(FLASH_BASE + i * PAYLOAD, b"\xff" * PAYLOAD) for i in range(16))
    for offset in range(0, len(head) - 20, 4):
        start, first, last, mapping, end = struct.unpack_from("<5I", head, offset)
        if start == _BI_MARKER_START and end == _BI_MARKER_END:
            break
    else:
        return {}
    ram = []  # (flash source, RAM start, RAM end): entries copied to RAM at start-up
    while True:
        source, begin, finish = struct.unpack("<3I", read(mapping, 12))
        if source == 0:
            break
        ram.append((source, begin, finish))
        mapping += 12

    def locate(address):
        for source, begin, finish in ram:
            if begin <= address < finish:
                return source + address - begin
        return address

    def string(address):
        text = bytearray()
        address = locate(address)
        while len(text) < 256:
            char = read(address + len(text), 1)
            if char == b"\0":
                return text.decode("utf-8", "replace")
            text += char
        return text.decode("utf-8", "replace")

    found = {}
    for at in range(first, last, 4):
        (entry,) = struct.unpack("<I", read(at, 4))
        kind, _tag = struct.unpack("<HH", read(locate(entry), 4))
        if kind == _BI_TYPE_ID_AND_STRING:
            ident, value = struct.unpack("<II", read(locate(entry) + 4, 8))
            found.setdefault(ident, string(value))
    return found


def parse_version(text):
    """'v1.28.0' (or 'v1.29.0-preview.12.gabc') -> (1, 28); None when unreadable."""
    try:
        major, minor = text.lstrip("v").split("-")[0].split(".")[:2]
        return int(major), int(minor)
    except ValueError:
        return None


def read_firmware(data, name):
    """Check a UF2 is an official-layout MicroPython for a Pico, Pico W or Pico 2."""
    blocks = parse(data, name)
    families = sorted(
        {b.family for b in blocks if not b.flags & FLAG_NOT_MAIN_FLASH and b.family not in (None, ABSOLUTE)}
    )
    known = [f for f in families if any(f in layout.families for layout in LAYOUTS)]
    if not known:
        shown = ", ".join("0x%08X" % f for f in families if f is not None) or "none"
        raise Uf2Error(
            "%s is not for a Raspberry Pi Pico: its UF2 family id is %s, not RP2040 (0x%08X) or RP2350"
            % (name, shown, RP2040)
        )
    if len(known) > 1:
        raise Uf2Error(
            "%s holds code for several chips (%s): use the plain MicroPython UF2 of one board"
            % (name, ", ".join(FAMILY_NAMES[f] for f in known))
        )
    family = known[0]
    pages = _flash_image([b for b in blocks if b.family == family and not b.flags & FLAG_NOT_MAIN_FLASH])
    info = binary_info(pages)
    program = info.get(_BI_ID_PROGRAM_NAME, "")
    if program != "MicroPython":
        raise Uf2Error(
            "%s is not MicroPython (its binary info names %r): download the .uf2 from https://micropython.org/download/RPI_PICO/"
            % (name, program or "no program")
        )
    board = info.get(_BI_ID_PICO_BOARD, "")
    layout = next((lay for lay in LAYOUTS if lay.pico_board == board), None)
    if layout is None or family not in layout.families:
        raise Uf2Error(
            "%s is MicroPython for the board %r (%s), not a Pico, Pico W or Pico 2: download RPI_PICO, RPI_PICO_W or RPI_PICO2"
            % (name, board or "?", FAMILY_NAMES[family])
        )
    version = info.get(_BI_ID_PROGRAM_VERSION, "")
    firmware = Firmware(blocks, layout, family, program, version)
    inside = [a for a in pages if a + PAYLOAD > layout.fs_start and a < layout.fs_end]
    outside = [a for a in pages if a < FLASH_BASE or a >= layout.fs_end]
    if inside:
        raise Uf2Error(
            "%s writes flash at 0x%08X, inside the %s filesystem region 0x%08X-0x%08X: it already carries a filesystem "
            "or is not a stock MicroPython; use the plain UF2 from %s"
            % (name, min(inside), layout.build, layout.fs_start, layout.fs_end, layout.url)
        )
    if outside:
        raise Uf2Error("%s writes outside the %s flash (0x%08X)" % (name, layout.build, min(outside)))
    return firmware


def write(firmware, fs_blocks):
    """UF2 bytes: the firmware's blocks, then ``fs_blocks`` ({flash address: 4096 bytes}).

    Blocks of the firmware's family are renumbered as one download; other families'
    blocks (an RP2350-E10 absolute block) go first, unchanged, as picotool writes them."""
    family = firmware.family
    others = [b for b in firmware.blocks if b.family != family]
    pages = [(b.address, b.payload, b.flags) for b in firmware.blocks if b.family == family]
    for address in sorted(fs_blocks):
        data = fs_blocks[address]
        for at in range(0, len(data), PAYLOAD):
            pages.append((address + at, data[at : at + PAYLOAD], FLAG_FAMILY_ID))
    out = bytearray()
    for block in others:
        out += _pack(block.flags, block.address, block.payload, block.number, block.count, block.family or 0)
    for number, (address, payload, flags) in enumerate(pages):
        out += _pack(flags, address, payload, number, len(pages), family)
    return bytes(out)


def _pack(flags, address, payload, number, count, family):
    head = struct.pack("<8I", MAGIC_START0, MAGIC_START1, flags, address, len(payload), number, count, family)
    return head + payload + b"\0" * (476 - len(payload)) + struct.pack("<I", MAGIC_END)


def region(blocks, layout, fill):
    """The filesystem region as the Pico's flash holds it after loading ``blocks`` over a
    flash whose region held ``fill`` (bytes of the region's size): what the rp2 port mounts."""
    image = bytearray(fill)
    for block in blocks:
        if layout.fs_start <= block.address < layout.fs_end:
            at = block.address - layout.fs_start
            image[at : at + len(block.payload)] = block.payload
    return image
