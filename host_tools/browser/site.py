"""The static site of ``python -m host_tools web``: the page, MicroPython's WebAssembly port
(npm, pinned by host_tools/browser/package-lock.json, installed by make into build/webport),
the firmware tree compiled the way ``flash`` compiles it for a device without a native
emitter (the port's .mpy arch is 0) with ``device.cfg`` naming board ``web``, the strategy,
spread and Zoo tables, and webport.py (what the port needs before main.py runs).

Layout of the site folder: ``index.html`` and the page's scripts (page/), ``host.mjs``,
``micropython.mjs`` + ``.wasm``, ``tree.bin`` (every device file, concatenated),
``port/webport.py``, ``site.json`` (where each file is in tree.bin, the data folder, the
buttons and keys of the simulator, the version the service worker caches under).
"""

import hashlib
import json
import os
import shutil

import host_tools
from host_tools.flashing import build as flash_build

HERE = os.path.dirname(os.path.abspath(__file__))
PAGE = os.path.join(HERE, "page")
NODE_DIR = os.path.join(host_tools.REPO, "build", "webport")  # make's npm ci of package-lock.json
PORT_PACKAGE = os.path.join("node_modules", "@micropython", "micropython-webassembly-pyscript")
PORT_FILES = ("micropython.mjs", "micropython.wasm")
DEFAULT_OUT = os.path.join("build", "web")
BOARD = "web"
EXTRAS = ("webport.py", "records_json.py")  # run by the host in the port, beside the firmware (port/)


class SiteError(Exception):
    """The site cannot be built; one line for the user."""


def pinned_version():
    with open(os.path.join(HERE, "package-lock.json")) as f:
        lock = json.load(f)
    return lock["packages"]["node_modules/@micropython/micropython-webassembly-pyscript"]["version"]


def installed(node_dir=NODE_DIR):
    """True when ``node_dir`` holds the pinned version of the port."""
    try:
        with open(os.path.join(node_dir, PORT_PACKAGE, "package.json")) as f:
            version = json.load(f).get("version")
    except (OSError, ValueError):
        return False
    return version == pinned_version() and all(
        os.path.isfile(os.path.join(node_dir, PORT_PACKAGE, n)) for n in PORT_FILES
    )


def install_port(node_dir=NODE_DIR):
    """``npm ci`` of the pinned port into ``node_dir`` (what ``make web`` does) unless it is there."""
    import subprocess

    if installed(node_dir):
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SiteError("npm not found: install Node.js 18 or newer, then run `make web`")
    # npm ci empties node_modules first: a second install at once would break the first
    with host_tools.build_lock(node_dir):
        if installed(node_dir):
            return  # another process installed it while this one waited
        os.makedirs(node_dir, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copyfile(os.path.join(HERE, name), os.path.join(node_dir, name))
        subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--silent"], cwd=node_dir, check=True)


def port_folder(node_dir=NODE_DIR):
    folder = os.path.join(node_dir, PORT_PACKAGE)
    if not installed(node_dir):
        raise SiteError(
            "MicroPython's WebAssembly port %s is not installed in %s: run `make web`, which installs "
            "the version pinned in host_tools/browser/package-lock.json with npm" % (pinned_version(), node_dir)
        )
    return folder


def device_files(source, rules, mpy_cross=None, tables=None):
    """The DeviceFiles of the web board's tree (compiled, arch 0) and the tables built in
    ``source``/build (the same choice as flash: strategy, spread, the menu's Zoo table),
    or ``tables`` ({device name: host path}, as SimDevice takes them) instead."""
    cross = flash_build.find_mpy_cross(mpy_cross)
    flash_build.check_mpy_cross(cross)
    files = flash_build.build(source, cross, None, BOARD, rules)
    if tables is not None:
        given = []
        for name, local in sorted(tables.items()):
            with open(local, "rb") as f:
                given.append(flash_build.DeviceFile("/" + name, f.read(), local))
        return files + given, any(name == "strategy-%s.bin" % rules for name in tables)
    table = flash_build.strategy_table(source, rules)
    spread = flash_build.spread_table(source, rules)
    extra = ([spread] if spread is not None and table is not None else []) + flash_build.menu_tables(source, rules)
    return files + ([table] if table is not None else []) + extra, table is not None


def extras_sources():
    return [(name, os.path.join(HERE if name == "webport.py" else os.path.dirname(HERE), name)) for name in EXTRAS]


def build_site(out, source=None, rules="forced", node_dir=NODE_DIR, mpy_cross=None, tables=None):
    """Write the site into ``out`` (replaced); returns site.json's dict."""
    from host_tools.simulator.backend import BUTTONS, BUTTON_NAMES
    from host_tools.simulator import keys as sim_keys
    from host_tools.simulator import wire

    import save_store

    source = source or flash_build.default_source()
    port = port_folder(node_dir)
    files, has_table = device_files(source, rules, mpy_cross, tables)
    if os.path.isdir(out):
        shutil.rmtree(out)
    os.makedirs(os.path.join(out, "port"))
    blob = bytearray()
    index = []
    for f in sorted(files, key=lambda f: f.path):
        index.append([f.path, len(blob), len(f.data)])
        blob += f.data
    with open(os.path.join(out, "tree.bin"), "wb") as tree:
        tree.write(blob)
    digest = hashlib.sha256(blob)
    extras = []
    for name, local in extras_sources():
        shutil.copyfile(local, os.path.join(out, "port", name))
        extras.append(name)
        with open(local, "rb") as f:
            digest.update(f.read())
    digest.update(icon_source())
    copied = [os.path.join(port, name) for name in PORT_FILES] + [os.path.join(HERE, "host.mjs")]
    copied += [os.path.join(PAGE, name) for name in sorted(os.listdir(PAGE))]
    sources = []
    for local in copied:
        with open(local, "rb") as f:
            data = f.read()
        digest.update(data)
        sources.append((os.path.basename(local), data))
    version = digest.hexdigest()[:16]
    for name, data in sources:
        with open(os.path.join(out, name), "wb") as f:
            f.write(stamped(name, data, version))
    icons = write_icons(out)
    files = ["site.json", "tree.bin"] + ["port/" + name for name in extras] + [n for n, _ in sources] + icons
    info = {
        "version": version,
        "rules": rules,
        "tree": index,
        "extras": extras,
        "dataDir": save_store.DATA_DIR,
        "buttons": list(BUTTONS),
        "buttonNames": list(BUTTON_NAMES),
        "pressMs": sim_keys.PRESS_MS,
        "wire": {"header": wire.P.HEADER, "kinds": wire.KINDS},  # boards/sim_protocol.py
        "hasTable": has_table,
        "animals": zoo_animals(),
        # Every file of this build with its SHA-256: the service worker caches a build
        # only whole and unchanged, so one page never mixes two builds' files.
        "files": sorted(["./"] + files),
        "hashes": {name: file_hash(os.path.join(out, name)) for name in sorted(files) if name != "site.json"},
    }
    with open(os.path.join(out, "site.json"), "w") as f:
        json.dump(info, f, indent=1)
    return info


def zoo_animals():
    """{language: the Zoo card's animals, faces 1..6}, from the firmware's catalogs: what
    the page's live region calls the dice, as the handheld names them."""
    host_tools.use_firmware()
    import lang
    import rules

    from host_tools import texts

    zoo = rules.make_ruleset(rules.ZOO)
    names = {}
    for code in texts.codes():
        texts.use(code)
        names[code] = [texts.face(zoo, face) for face in range(1, 7)]
    texts.use(lang.ENGLISH)
    return names


# The page's files name each other with this query ("page.mjs?v=dev"); the build puts the
# build's version there, so every request names its build and the service worker answers
# it from that build's cache.
VERSION_MARK = b"?v=dev"
STAMPED = (".html", ".mjs", ".js", ".webmanifest")


def stamped(name, data, version):
    if not name.endswith(STAMPED):
        return data
    return data.replace(VERSION_MARK, b"?v=" + version.encode())


def file_hash(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def icon_source():
    """What the icons are made from (their code and the driver that draws the face)."""
    import host_tools.browser.icons as icons_module

    parts = b""
    for path in (icons_module.__file__, os.path.join(host_tools.REPO, "firmware", "drivers", "max7219.py")):
        with open(path, "rb") as f:
            parts += f.read()
    return parts


def write_icons(out):
    from host_tools.browser import icons

    return icons.write_icons(out)


def sizes(out):
    """(raw bytes, gzipped bytes) of everything a first visit downloads."""
    import gzip

    raw = packed = 0
    for folder, _dirs, names in os.walk(out):
        for name in names:
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            raw += len(data)
            packed += len(gzip.compress(data, 9))
    return raw, packed


def parts(out):
    """What a first visit downloads, in KiB (rounded): ``raw`` and ``gzipped`` in all,
    then the strategy (``table``), ``spread`` and ``zoo`` tables, the compiled ``tree``
    (every other device file), the wasm ``port`` and ``micropython.mjs`` (``mjs``);
    docs/web.md quotes them (tests/web/test_web_node.py keeps it true)."""
    with open(os.path.join(out, "site.json"), encoding="utf-8") as f:
        tree = json.load(f)["tree"]
    by_name = {path: size for path, _at, size in tree}
    tables = {"table": "/strategy-forced.bin", "spread": "/spread-forced.bin", "zoo": "/strategy-zoo.bin"}
    raw, packed = sizes(out)
    found = {"raw": raw, "gzipped": packed}
    found.update({key: by_name.get(path, 0) for key, path in tables.items()})
    found["tree"] = sum(size for path, size in by_name.items() if path not in tables.values())
    found["port"] = os.path.getsize(os.path.join(out, "micropython.wasm"))
    found["mjs"] = os.path.getsize(os.path.join(out, "micropython.mjs"))
    return {key: (value + 512) // 1024 for key, value in found.items()}


def parts_line(found):
    """``parts`` as docs/web.md words them."""
    return (
        "Download: {raw:,} KiB raw, {gzipped:,} KiB gzipped: the exact strategy table {table:,} KiB, the wasm "
        "port {port:,} KiB, `micropython.mjs` {mjs:,} KiB, the compiled tree {tree:,} KiB, spread and Zoo tables "
        "{spread:,} and {zoo:,} KiB.".format(**found)
    )
