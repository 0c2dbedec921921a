"""The official MicroPython each release's one-file UF2s are made from (``make
release-firmware``, run by .github/workflows/publish.yml on a tagged release).

Pinned: MicroPython ``VERSION`` for each firmware build a Pico board needs (RPI_PICO,
RPI_PICO_W, RPI_PICO2), taken from the build's official download page. Each download is
bounded and checked as ``uf2`` checks any firmware file it is given
(``uf2.read_firmware``: a UF2 for the chip, MicroPython, the board's build, nothing in the
filesystem region), and must be the pinned version; only then is it written (atomically)
as ``<BUILD>-<VERSION>.uf2``, the name ``make release-uf2`` takes it by. Anything else is
one line and exit 2, nothing written.

``RELEASES``: the one-file UF2 of each Pico board, made by ``uf2``'s bundle from the
firmware its build needs (the Pico W: board pico, the compact table).

``python -m host_tools.flashing.release fetch FOLDER [PAGE_URL]``: the downloads
(PAGE_URL, default the official ``https://micropython.org/download/%s/`` with %s the
build, is for tests, which serve a page on 127.0.0.1); ``... uf2s FOLDER OUT``: the
release's UF2s from FOLDER's firmware into OUT.
"""

import os
import re
import sys
import urllib.parse
import urllib.request

import host_tools
from host_tools.flashing import uf2

VERSION = "v1.28.0"
BUILDS = ("RPI_PICO", "RPI_PICO_W", "RPI_PICO2")
DOWNLOAD_PAGE = "https://micropython.org/download/%s/"
MAX_PAGE = 1 << 20
RELEASES = (  # (file, board, firmware build, compact table)
    ("pico-yahtzee-pico.uf2", "pico", "RPI_PICO", False),
    ("pico-yahtzee-pico_sh1106.uf2", "pico_sh1106", "RPI_PICO", False),
    ("pico-yahtzee-pico_neopixel.uf2", "pico_neopixel", "RPI_PICO", False),
    ("pico-yahtzee-pico_w.uf2", "pico", "RPI_PICO_W", True),
    ("pico-yahtzee-pico2.uf2", "pico2", "RPI_PICO2", False),
)


class ReleaseError(Exception):
    """One line for the user; nothing was written."""


def firmware_name(build):
    return "%s-%s.uf2" % (build, VERSION)


def _read(url, most, opener):
    try:
        with opener(url, timeout=60) as response:
            data = response.read(most + 1)
    except OSError as exc:
        raise ReleaseError("cannot download %s: %s" % (url, getattr(exc, "reason", None) or exc)) from None
    if len(data) > most:
        raise ReleaseError("%s is larger than %d KiB: not a firmware download" % (url, most // 1024))
    return data


def link(page, build, base):
    """The address of ``build``'s pinned-version .uf2 on its download page, or None."""
    pattern = r'href="([^"]*/%s-[0-9]{8}-%s\.uf2)"' % (re.escape(build), re.escape(VERSION))
    found = re.findall(pattern, page)
    return urllib.parse.urljoin(base, found[0]) if found else None


def check(data, name, build):
    """The firmware in ``data``, checked as ``uf2`` checks a firmware file and pinned to
    ``build`` and VERSION; ReleaseError otherwise."""
    try:
        firmware = uf2.read_firmware(data, name)
    except uf2.Uf2Error as exc:
        raise ReleaseError(str(exc)) from None
    if firmware.layout.build != build:
        raise ReleaseError("%s is MicroPython for %s, not %s" % (name, firmware.layout.build, build))
    if firmware.version != VERSION:
        raise ReleaseError("%s is MicroPython %s, not the pinned %s" % (name, firmware.version or "?", VERSION))
    return firmware


def fetch(folder, page_url=DOWNLOAD_PAGE, opener=urllib.request.urlopen):
    """Download and check every build's firmware into ``folder``; returns the paths."""
    got = {}
    for build in BUILDS:
        base = page_url % build
        page = _read(base, MAX_PAGE, opener).decode("utf-8", "replace")
        url = link(page, build, base)
        if url is None:
            raise ReleaseError("no %s %s .uf2 on %s" % (build, VERSION, base))
        data = _read(url, uf2.MAX_UF2_BYTES, opener)
        check(data, url, build)
        got[build] = data
    os.makedirs(folder, exist_ok=True)
    paths = []
    for build, data in got.items():
        path = os.path.join(folder, firmware_name(build))
        host_tools.write_file_atomic(path, data)
        paths.append(path)
    return paths


def uf2s(folder, out, source=None, say=print):
    """Every board's one-file UF2 in ``out`` from the firmware in ``folder``."""
    from host_tools.flashing import build as flash_build
    from host_tools.flashing import bundle

    source = source or flash_build.default_source()
    os.makedirs(out, exist_ok=True)
    paths = []
    for name, board, build, compact in RELEASES:
        path = os.path.join(out, name)
        try:
            bundle.make(source, os.path.join(folder, firmware_name(build)), board, "forced", compact, path, say=say)
        except bundle.BundleError as exc:
            raise ReleaseError(str(exc)) from None
        paths.append(path)
    return paths


USAGE = "usage: python -m host_tools.flashing.release fetch FOLDER [PAGE_URL] | uf2s FOLDER OUT"


def main(argv):
    if argv[:1] == ["fetch"] and 2 <= len(argv) <= 3:
        work = lambda: fetch(*argv[1:])  # noqa: E731
        said = "(MicroPython %s, checked)" % VERSION
    elif argv[:1] == ["uf2s"] and len(argv) == 3:
        work = lambda: uf2s(argv[1], argv[2], say=lambda text: None)  # noqa: E731
        said = "(one file: MicroPython %s, the game, its tables)" % VERSION
    else:
        print(USAGE, file=sys.stderr)
        return 2
    try:
        paths = work()
    except ReleaseError as exc:
        print("release: %s" % exc, file=sys.stderr)
        return 2
    for path in paths:
        print("release: %s %s" % (path, said))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
