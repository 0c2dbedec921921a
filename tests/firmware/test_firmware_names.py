"""Names across firmware modules: no module reads another's private names,
power.py asks the app instead of copying screen ids, the computer's pace is defined once,
App holds only state more than one module uses (a screen's own is in its module), and no
module assigns another module's globals.

Static checks over firmware/ (the AST of every module): what a module may read off another
object is the public interface that object's module documents; a leading ``_`` is internal.
"""

import ast
import os
import re

import host_tools

FIRMWARE = os.path.join(host_tools.REPO, "firmware")

# save_boot.py is the boot half of save_session.py, moved out so its code leaves RAM after
# the first frame (its docstring): it works on the session's internals as save_session.py does.
SAME_MODULE = {"save_boot.py": "save_session.py"}


def _modules():
    found = {}
    for folder, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                with open(path) as f:
                    found[os.path.relpath(path, FIRMWARE)] = ast.parse(f.read(), path)
    return found


def _private(name):
    return name.startswith("_") and not name.startswith("__")


def _defined(tree):
    """The private names a module defines: its functions, classes and assignments at any
    level, and every attribute it assigns (``obj._x = ...``, ``self._x`` included)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
    return {name for name in names if _private(name)}


def foreign_private_reads(modules):
    """``module: [(line, expression)]`` of every private name a module reads off an object
    other than ``self``/``cls`` and does not define itself (a module may use its own
    objects' internals: game.py a Game it rebuilt, rules.py a Ruleset's caches). A name
    both modules define passes unseen: the scan is by name, not by type."""
    defined = {name: _defined(tree) for name, tree in modules.items()}
    found = {}
    for module, tree in modules.items():
        own = defined[module] | defined.get(SAME_MODULE.get(module), set())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                reads = [
                    (node.lineno, "from %s import %s" % (node.module, alias.name))
                    for alias in node.names
                    if _private(alias.name)
                ]
            elif (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
                and node.attr not in own
            ):
                reads = [(node.lineno, ast.unparse(node))]
            else:
                continue
            if reads:
                found.setdefault(module, []).extend(reads)
    return found


def test_no_firmware_module_reads_another_modules_private_names():
    found = foreign_private_reads(_modules())
    assert found == {}, "\n".join(
        "%s:%d %s" % (module, line, text) for module, reads in sorted(found.items()) for line, text in sorted(reads)
    )


def test_the_scan_sees_a_private_read_of_the_advisor():
    # The scan itself, on seat_win and coach as they were: the advisor's kernel read
    # under private names (its own _k3 passes; self._k3 is not a read of another object).
    modules = _modules()
    modules["seat_win.py"] = ast.parse(
        "class W:\n"
        "    def __init__(self, adv):\n"
        "        self._k3 = adv._score\n"
        "        adv._best_rolls(self._k3, adv.keeps)\n"
    )
    modules["coach.py"] = ast.parse("from strategy_advisor import _NEG\nx = coach.adv._card\n")
    found = foreign_private_reads(modules)
    assert found == {
        "seat_win.py": [(3, "adv._score"), (4, "adv._best_rolls")],
        "coach.py": [(1, "from strategy_advisor import _NEG"), (2, "coach.adv._card")],
    }


def test_power_asks_the_app_and_copies_no_screen_id():
    with open(os.path.join(FIRMWARE, "power.py")) as f:
        source = f.read()
    assert "app.moving()" in source
    for copied in ("app.screen", "ROLLOFF", "TURN"):
        assert copied not in source, copied


def test_the_computers_pace_is_defined_once():
    defined = [
        (module, node.lineno)
        for module, tree in _modules().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id.endswith("CPU_STEP_MS")
    ]
    assert [module for module, _line in defined] == ["seats.py"], defined


def _attributes(tree, owner):
    """(read, written) attribute names of ``owner`` (a plain name: ``self``, ``app``)."""
    read, written = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == owner:
            (written if isinstance(node.ctx, ast.Store) else read).add(node.attr)
    return read, written


# App attributes only one other module uses, kept on App for now, each with its reason.
ONE_USER = {
    "tie": "the roll-off's, set by the app's roll-off round (the roll-off spread over frames)",
    "starter": "the roll-off's, set by the app's roll-off round with tie (the roll-off spread over frames)",
}


def test_app_holds_only_state_more_than_one_module_uses():
    # Each screen owns its state: what App sets and app.py never reads,
    # used by one other module only, is that module's, kept there as module-level state
    # set by its way in (ui/__init__.py).
    modules = _modules()
    app_read, app_written = _attributes(modules["app.py"], "self")
    single = {}
    for name in sorted(app_written - app_read):
        users = [
            module
            for module, tree in modules.items()
            if module != "app.py" and name in set().union(*_attributes(tree, "app"))
        ]
        if len(users) == 1:
            single[name] = users[0]
    assert sorted(single) == sorted(ONE_USER), single


def foreign_global_writes(modules):
    """``["module:line expression"]`` of every assignment to a name of an imported module."""
    found = []
    for module, tree in modules.items():
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                imported |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                imported |= {alias.asname or alias.name for alias in node.names}
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id in imported
            ):
                found.append("%s:%d %s" % (module, node.lineno, ast.unparse(node)))
    return found


def test_no_firmware_module_writes_another_modules_globals():
    # A screen's state is set by its own way in (screens.show_summary(app, ...)), never
    # assigned from outside (``menu.cursor = 0`` in app.py).
    found = foreign_global_writes(_modules())
    assert found == [], "\n".join(found)


def test_the_scan_sees_a_write_to_a_screens_state():
    modules = {"app.py": ast.parse("from ui import menu\nimport ui.screens\nmenu.cursor = 0\nui.x = 1\n")}
    assert foreign_global_writes(modules) == ["app.py:3 menu.cursor", "app.py:4 ui.x"]


def _imported(tree):
    """Every module a tree imports, at any level: ``import a.b``, ``from a import b``
    (as ``a.b`` too, for a package's submodule) and the names handed to ``use``/``__import__``
    (the save layer's imports for a while, save_session.use)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            names.add(node.module)
            names.update("%s.%s" % (node.module, alias.name) for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            if node.value == "ui" or node.value.startswith("ui."):
                names.add(node.value)
    return names


def _from_ui(names):
    return sorted(name for name in names if name == "ui" or name.startswith("ui."))


def test_the_save_layer_imports_nothing_of_the_ui():
    # It returns what to show (session.asks) and the UI shows it: no drawing, no screens,
    # no menu tables in save_session.py or its boot half.
    modules = _modules()
    for name in ("save_session.py", "save_boot.py", "power.py"):
        assert _from_ui(_imported(modules[name])) == [], name


def test_the_save_layer_writes_no_app_state_and_names_no_screen():
    # It asks the app (in_menu, ended) instead of reading app.screen or calling app.show,
    # and the app redraws on session.news() instead of the save layer writing app.dirty.
    for name in ("save_session.py", "save_boot.py"):
        tree = _modules()[name]
        written = [
            ast.unparse(node)
            for node in ast.walk(tree)
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
        ]
        assert [text for text in written if text.startswith("app.")] == (
            ["app.session"] if name == "save_session.py" else []
        ), (
            name  # attach() plugs it in; nothing else of the app is written
        )
        read = {ast.unparse(node) for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
        assert not read & {"app.screen", "app.show", "app.dirty"}, name
        with open(os.path.join(FIRMWARE, name)) as f:
            assert "# ui." not in f.read(), name  # no screen id copied (tests/firmware/test_mirrored_constants.py)


def test_the_import_scan_sees_the_uis_modules():
    # The scan itself, on save_session.py as it was: ui.draw at the top, ui.menu in a function,
    # the overlays' module by name for save_session.use.
    tree = ast.parse(
        "from ui import draw\n"
        "_SCREENS = 'ui.records_screens'\n"
        "def computer_name(kind):\n"
        "    from ui import menu\n"
        "def f(app):\n"
        "    app.dirty = True\n"
    )
    assert _from_ui(_imported(tree)) == ["ui", "ui.draw", "ui.menu", "ui.records_screens"]


def _layer_rows():
    """``[(layer, prefix, modules)]`` from docs/architecture.md's layer list (its first table)."""
    with open(os.path.join(os.path.dirname(FIRMWARE), "docs", "architecture.md")) as f:
        text = f.read()
    rows = []
    for line in text.split("\n## ", 2)[1].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] not in ("layer", "---"):
            prefix = cells[1].strip("`")
            rows.append((cells[0], prefix, [m[:-3] for m in re.findall(r"`([a-z_0-9]+\.py)`", cells[2])]))
    return rows


def test_each_root_module_is_in_the_layer_its_prefix_names():
    """The flash root lists as layers. Every module at firmware/'s root is
    in architecture.md's layer list exactly once, in the row whose prefix it carries (rows
    without a prefix: the app and start layers); the list names no module that is gone."""
    rows = _layer_rows()
    root = sorted(name[:-3] for name in os.listdir(FIRMWARE) if name.endswith(".py"))
    listed = [module for _layer, _prefix, modules in rows for module in modules]
    assert sorted(listed) == root
    prefixes = [prefix for _layer, prefix, _modules in rows if prefix not in ("none", "folder")]
    for layer, prefix, modules in rows:
        for module in modules:
            carried = [p for p in prefixes if module.startswith(p)]
            if prefix in ("none", "folder"):
                assert carried == [], (module, layer, carried)
            else:
                assert carried == [prefix], (module, layer, carried)
