"""The Pico's filesystem as a littlefs2 image, made and checked by MicroPython's own driver.

The image is built inside the MicroPython unix port (``host_tools.run_micropython``): its
``os.VfsLfs2`` formats a RAM block device shaped like the rp2 port's ``rp2.Flash`` (4096-
byte blocks, erase = ioctl 6, programs with an offset) with ``progsize=256`` as the rp2
port's ``_boot.py`` does, and the files are written through the mounted filesystem. The
check mounts a region the same way (``os.VfsLfs2(bdev, progsize=256)``) and hashes every
file, so what the device will read is verified by the code that will read it.
"""

import os
import tempfile

import host_tools
from host_tools import fakes

BLOCK = 4096

# The RAM flash of both scripts. Blocks littlefs erased or programmed are marked in
# ``touched``: only those need to go into the UF2.
_FLASH = r"""
import os, sys, hashlib, binascii
from ram_flash import BLOCK as BS, RamFlash as Flash  # host_tools/fakes
"""

_BUILD = (
    _FLASH
    + r"""
src, listing, blocks, out = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
flash = Flash(blocks)
os.VfsLfs2.mkfs(flash, progsize=256)
# mtime=False: the image depends only on the files (no clock), so a build repeats exactly
fs = os.VfsLfs2(flash, progsize=256, mtime=False)
buf = bytearray(BS)
made = set()
with open(listing) as names:
    paths = [line.strip() for line in names if line.strip()]
for path in paths:
    parts = path.strip('/').split('/')
    for i in range(1, len(parts)):
        folder = '/' + '/'.join(parts[:i])
        if folder not in made:
            fs.mkdir(folder)
            made.add(folder)
    with open(src + path, 'rb') as f, fs.open(path, 'wb') as g:
        while True:
            n = f.readinto(buf)
            if not n:
                break
            g.write(buf if n == BS else memoryview(buf)[:n])
s = fs.statvfs('/')
with open(out, 'wb') as f:
    f.write(flash.data)
with open(out + '.touched', 'wb') as f:
    f.write(flash.touched)
print('free', s[0], s[3], s[2])
"""
)

_CHECK = (
    _FLASH
    + r"""
region, copy_to = sys.argv[1], sys.argv[2]
with open(region, 'rb') as f:
    flash = Flash(data=bytearray(f.read()))
try:  # as ports/rp2/modules/_boot.py mounts it (which formats the flash when this fails)
    os.mount(os.VfsLfs2(flash, progsize=256), '/pico')
except OSError as exc:
    print('unmountable', exc)
    raise SystemExit
buf = bytearray(BS)
def walk(folder):
    for entry in os.ilistdir('/pico' + folder):
        path = folder + '/' + entry[0]
        if entry[1] == 0x4000:
            walk(path)
            continue
        h = hashlib.sha256()
        size = 0
        out = None
        if copy_to:
            parts = path.strip('/').split('/')
            for i in range(1, len(parts)):
                try:
                    os.mkdir(copy_to + '/' + '/'.join(parts[:i]))
                except OSError:
                    pass
            out = open(copy_to + path, 'wb')
        with open('/pico' + path, 'rb') as f:
            while True:
                n = f.readinto(buf)
                if not n:
                    break
                chunk = buf if n == BS else memoryview(buf)[:n]
                h.update(chunk)
                size += n
                if out:
                    out.write(chunk)
        if out:
            out.close()
        print('F\t%s\t%d\t%s' % (path, size, binascii.hexlify(h.digest()).decode()))
walk('')
s = os.statvfs('/pico')
print('S\t%d\t%d\t%d' % (s[0], s[2], s[3]))
"""
)


class ImageError(Exception):
    """Building or checking the image failed; the message is one line for the user."""


class FilesystemFull(ImageError):
    """The files do not fit the filesystem."""


def _heap(blocks):
    # the flash bytearray, its copy when written out, and room for littlefs' caches
    return "%dK" % (3 * blocks * BLOCK // 1024 + 2048)


def build(files, blocks):
    """(image bytes, set of touched block numbers, free bytes) for ``files`` (objects
    with ``path`` and ``data``, e.g. DeviceFile) on a littlefs2 of ``blocks`` blocks."""
    with tempfile.TemporaryDirectory(prefix="uf2-image-") as work:
        tree = os.path.join(work, "tree")
        for f in files:
            local = os.path.join(tree, f.path.lstrip("/"))
            os.makedirs(os.path.dirname(local), exist_ok=True)
            with open(local, "wb") as out:
                out.write(f.data)
        listing = os.path.join(work, "files.txt")
        with open(listing, "w") as out:
            out.write("".join(f.path + "\n" for f in files))
        script = os.path.join(work, "build.py")
        with open(script, "w") as out:
            out.write(_BUILD)
        image = os.path.join(work, "image.bin")
        proc = host_tools.run_micropython(
            [script, tree, listing, str(blocks), image], heap=_heap(blocks), extra_path=(fakes.FOLDER,)
        )
        if proc.returncode != 0:
            last = ((proc.stdout + proc.stderr).strip().splitlines() or ["?"])[
                -1
            ]  # the unix port prints tracebacks on stdout
            if "ENOSPC" in last or "28" in last.split():
                raise FilesystemFull("the files do not fit the %d KiB filesystem" % (blocks * BLOCK // 1024))
            raise ImageError("MicroPython's littlefs could not build the image: %s" % last)
        words = proc.stdout.split()
        block_size, free_blocks = int(words[1]), int(words[2])
        if free_blocks >= 1 << 31:
            # littlefs reports a full filesystem's "free" as count - used, which its count of
            # used blocks can exceed; MicroPython prints that as an unsigned 32-bit number
            free_blocks -= 1 << 32
        with open(image, "rb") as f:
            data = f.read()
        with open(image + ".touched", "rb") as f:
            touched = {i for i, mark in enumerate(f.read()) if mark}
    return data, touched, block_size * free_blocks


def read(region, copy_to=None):
    """Mount ``region`` (the filesystem's bytes) as the rp2 port does.

    Returns ({path: (size, sha256)}, (block size, blocks, free blocks)); ``copy_to``: a
    host folder that receives every file (the device's tree, e.g. for a virtual Pico)."""
    with tempfile.TemporaryDirectory(prefix="uf2-check-") as work:
        path = os.path.join(work, "region.bin")
        with open(path, "wb") as f:
            f.write(region)
        script = os.path.join(work, "check.py")
        with open(script, "w") as out:
            out.write(_CHECK)
        proc = host_tools.run_micropython(
            [script, path, os.path.abspath(copy_to) if copy_to else ""],
            heap=_heap(len(region) // BLOCK),
            extra_path=(fakes.FOLDER,),
        )
    if proc.returncode != 0 or proc.stdout.startswith("unmountable"):
        raise ImageError(
            "the filesystem image does not mount as on the Pico: %s"
            % ((proc.stdout + proc.stderr).strip().splitlines() or ["?"])[-1]
        )
    files, stat = {}, None
    for line in proc.stdout.splitlines():
        parts = line.split("\t")
        if parts[0] == "F":
            files[parts[1]] = (int(parts[2]), parts[3])
        elif parts[0] == "S":
            stat = tuple(int(p) for p in parts[1:])
    return files, stat
