"""The emulated Pico's files: UF2 firmware, the 2 MiB flash image and the RP2040 bootrom.

A flash image is the Pico's whole W25Q16 (2 MiB, 0x10000000-0x10200000 in XIP). Loading
a UF2 into it does what dropping the file on the RPI-RP2 drive does: each 4 KiB sector a
block lands in is erased first, then the block's bytes are written; sectors no block
touches (the littlefs filesystem at 0x100A0000 for MicroPython) keep their contents. Every
block is written, firmware and filesystem alike, so a UF2 that also carries a littlefs
image boots with those files. Each problem raises ChipFileError with one line.
"""

import os

import host_tools

FLASH_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024  # the Pico's W25Q16
SECTOR = 4096
BOOTROM_SIZE = 16 * 1024
RP2040_FAMILY = 0xE48BFF56
FAMILIES = {  # family ids of the UF2 spec, named in the error for a wrong chip
    0xE48BFF57: "RP2XXX absolute",
    0xE48BFF58: "RP2XXX data",
    0xE48BFF59: "RP2350 ARM-S",
    0xE48BFF5A: "RP2350 RISC-V",
    0xE48BFF5B: "RP2350 ARM-NS",
    0x68ED2B88: "SAMD21",
    0x55114460: "SAMD51",
    0xADA52840: "nRF52840",
    0xBFDD4EEE: "ESP32-S2",
    0xC47E5767: "ESP32-S3",
}
FIRMWARE_NAME = "RPI_PICO-v1.28.0.uf2"
BOOTROM_NAME = "rp2040-bootrom-b1.bin"
USER_DIR = os.path.join(host_tools.REPO, "build", "rp2")  # where README tells users to put both
DEFAULT_IMAGE = os.path.join(os.path.expanduser("~"), ".local", "share", "pico-yahtzee", "chip-flash.bin")
FIRMWARE_URL = "https://micropython.org/download/RPI_PICO/ (v1.28.0 .uf2)"
BOOTROM_URL = "https://github.com/raspberrypi/pico-bootrom-rp2040 (releases: b1 .bin)"


def fetch_hint(name):
    """Where to get ``name`` (the UF2 or the bootrom) and where to put it: one line."""
    if name == FIRMWARE_NAME:
        return "download it from %s into build/rp2/" % FIRMWARE_URL
    return "get it from %s into build/rp2/" % BOOTROM_URL


class ChipFileError(Exception):
    """A firmware, bootrom or flash image that cannot be used; the message is one line."""


def find_file(name, folders=()):
    """``build/rp2/<name>`` (where a maker puts it), else ``<name>`` in the first of the
    caller's ``folders`` that holds it; None if none does. Nothing outside the checkout
    is looked at unless the caller names it."""
    for folder in (USER_DIR,) + tuple(folders):
        if folder and os.path.isfile(os.path.join(folder, name)):
            return os.path.join(folder, name)
    return None


def read_uf2(path):
    """[(flash offset, bytes), ...] of an RP2040 UF2 for the main flash. The format and
    its damage checks are flashing/uf2.parse's (the one UF2 reader); this adds what the
    emulated Pico needs: the RP2040 family and blocks inside its 2 MiB flash."""
    from host_tools.flashing import uf2

    try:
        data = host_tools.read_input_file("--firmware", path, uf2.MAX_UF2_BYTES, "UF2 file")
    except host_tools.UsageError as exc:
        raise ChipFileError(str(exc)) from None
    try:
        parsed = uf2.parse(data, "it")
    except uf2.Uf2Error as exc:
        raise ChipFileError(
            "%s is not a UF2 file the Pico can load (%s): get the .uf2 from %s" % (path, exc, FIRMWARE_URL)
        ) from None
    blocks = []
    for index, block in enumerate(parsed):
        if block.family is not None and block.family != RP2040_FAMILY:
            name = FAMILIES.get(block.family, "unknown family 0x%08x" % block.family)
            raise ChipFileError(
                "%s is a UF2 for %s, not the RP2040 (family 0xe48bff56): the emulated Pico needs "
                "the RPI_PICO firmware, %s" % (path, name, FIRMWARE_URL)
            )
        if block.flags & uf2.FLAG_NOT_MAIN_FLASH:
            continue
        offset = block.address - FLASH_BASE
        if offset < 0 or offset + len(block.payload) > FLASH_SIZE:
            raise ChipFileError(
                "%s: block %d writes 0x%08x..+%d, outside the Pico's 2 MiB flash"
                % (path, index, block.address, len(block.payload))
            )
        blocks.append((offset, block.payload))
    return blocks


def apply_uf2(image, blocks):
    """Write UF2 ``blocks`` into ``image`` (a bytearray) as the bootrom's drive does."""
    erased = set()
    for offset, payload in blocks:
        for sector in range(offset // SECTOR, (offset + len(payload) - 1) // SECTOR + 1):
            if sector not in erased:
                erased.add(sector)
                image[sector * SECTOR : (sector + 1) * SECTOR] = b"\xff" * SECTOR
        image[offset : offset + len(payload)] = payload


def check_image(path, fresh=False):
    """Raise ChipFileError when ``path`` exists (and is kept) but is no Pico flash image."""
    if fresh or not os.path.exists(path):
        return
    try:
        size = os.path.getsize(path)
    except OSError as exc:
        raise ChipFileError("%s: cannot read the flash image (%s)" % (path, exc.strerror or exc)) from None
    if size != FLASH_SIZE:
        raise ChipFileError(
            "%s is %d bytes, not a Pico flash image (%d bytes = 2 MiB); use --fresh to start "
            "an erased one" % (path, size, FLASH_SIZE)
        )


def prepare_image(path, firmware=None, fresh=False):
    """Make ``path`` a flash image: erased when ``fresh`` or new, then ``firmware`` (a UF2
    path) loaded into it. An image without firmware and no UF2 given is an error."""
    blocks = read_uf2(firmware) if firmware else None
    check_image(path, fresh)
    if fresh or not os.path.exists(path):
        image = bytearray(b"\xff" * FLASH_SIZE)
    else:
        try:
            with open(path, "rb") as f:
                image = bytearray(f.read())
        except OSError as exc:
            raise ChipFileError("%s: cannot read the flash image (%s)" % (path, exc.strerror or exc)) from None
    if blocks is not None:
        apply_uf2(image, blocks)
    elif image[:256] == b"\xff" * 256:
        raise ChipFileError("%s holds no firmware: give --firmware RPI_PICO.uf2 (%s)" % (path, FIRMWARE_URL))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    host_tools.write_file_atomic(path, bytes(image))


def cut_at(image, journal, clock_ms):
    """The flash a power cut at ``clock_ms`` (emulated ms since power-on) leaves: ``image``
    (the flash when the chip's ``journal`` began) with the journal's erases and page
    programs done before that moment applied. The emulated NOR flash does each operation
    at once, so this is exactly what stopping the chip at ``clock_ms`` writes."""
    flash = bytearray(image)
    for at_ms, op, offset, length, data in journal:
        if at_ms > clock_ms:
            break
        if op == b"E":
            flash[offset : offset + length] = b"\xff" * length
        else:  # a page program: bits go 1 -> 0, the address wraps inside its 256-byte page
            page = offset & ~0xFF
            for i, value in enumerate(data):
                flash[page | ((offset + i) & 0xFF)] &= value
    return flash


def check_bootrom(path):
    if path is None or not os.path.lexists(path):
        raise ChipFileError(
            "bootrom %s not found: put %s in build/rp2/ (from %s) or pass --bootrom FILE"
            % (path or BOOTROM_NAME, BOOTROM_NAME, BOOTROM_URL)
        )
    try:  # a regular file, read with a bound: a FIFO or /dev/zero is refused, not waited on
        size = len(host_tools.read_input_file("--bootrom", path, BOOTROM_SIZE, "bootrom file"))
    except host_tools.UsageError as exc:
        raise ChipFileError(str(exc)) from None
    if size != BOOTROM_SIZE:
        raise ChipFileError("%s is %d bytes, not the RP2040 bootrom (16384 bytes, %s)" % (path, size, BOOTROM_NAME))
    return path
