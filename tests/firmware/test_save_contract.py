"""The contract between the app and the save layer is written once, in
docs/architecture.md ("The save layer"), and both sides keep to it: the app, power.py and
the screens use no more of ``app.session`` than the save layer offers there, the save
layer uses no more of the app than it lists, and every name listed exists.
"""

import ast
import os
import re

import host_tools

FIRMWARE = host_tools.FIRMWARE
DOC = os.path.join(host_tools.REPO, "docs", "architecture.md")


def _contract():
    """(offered, used) names, from the two bullets of the doc's save-layer section."""
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    section = text[text.index("### The save layer") :]
    offers = section[section.index("**What the save layer offers**") : section.index("**What it uses of the app**")]
    uses = section[section.index("**What it uses of the app**") : section.index("- It knows nothing")]

    def names(part):
        return {match for match in re.findall(r"`([a-z_]+)", part)}

    return names(offers), names(uses)


def _firmware_files(predicate):
    found = []
    for folder, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            rel = os.path.relpath(os.path.join(folder, name), FIRMWARE)
            if name.endswith(".py") and predicate(rel):
                found.append(os.path.join(folder, name))
    return sorted(found)


def _chains(path, root):
    """Attribute chains read from a name ``root`` (``app.settings.saved`` -> (settings,
    saved)) or from ``<x>.session`` when ``root`` is "session"."""
    with open(path, encoding="utf-8") as f:
        tree = ast.parse(f.read())
    chains = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        parts = []
        inner = node
        while isinstance(inner, ast.Attribute):
            parts.insert(0, inner.attr)
            inner = inner.value
        if root == "session":
            if isinstance(inner, ast.Name) and inner.id == "session" and parts:
                chains.append(tuple(parts))
            elif "session" in parts[:-1]:
                chains.append(tuple(parts[parts.index("session") + 1 :]))
        elif isinstance(inner, ast.Name) and inner.id == root:
            chains.append(tuple(parts))
    return chains


def test_the_app_and_its_screens_use_only_what_the_save_layer_offers():
    offered, _used = _contract()
    users = _firmware_files(lambda rel: not rel.startswith("save_"))
    wrong = set()
    for path in users:
        for chain in _chains(path, "session"):
            if chain and chain[0] not in offered:
                wrong.add("%s: session.%s" % (os.path.relpath(path, FIRMWARE), chain[0]))
    assert not wrong, sorted(wrong)


def test_the_save_layer_uses_only_what_the_contract_lists_of_the_app():
    _offered, used = _contract()
    wrong = set()
    for path in _firmware_files(lambda rel: rel.startswith("save_")):
        for chain in _chains(path, "app"):
            name = chain[1] if chain[0] == "settings" and len(chain) > 1 else chain[0]
            if name not in used:
                wrong.add("%s: app.%s" % (os.path.basename(path), ".".join(chain)))
    assert not wrong, sorted(wrong)


def test_every_name_of_the_contract_exists():
    import app
    import save_session
    from ui import menu

    offered, used = _contract()
    session = save_session.Session(_Hw(), "data")
    missing = [name for name in offered if not hasattr(session, name)]
    settings_names = {"saved", "restore", "setup_ok", "computer_name", "ruleset", "set_coach", "coach"}
    assert settings_names <= used
    settings = menu.Settings({})
    missing += ["settings.%s" % name for name in settings_names if not hasattr(settings, name)]
    app_names = used - settings_names
    missing += [name for name in app_names if not hasattr(app.App, name) and name not in _app_fields()]
    assert not missing, missing


class _Hw:
    fs = None


def _app_fields():
    """The attributes App.__init__ sets (``self.x = ...``)."""
    with open(os.path.join(FIRMWARE, "app.py"), encoding="utf-8") as f:
        tree = ast.parse(f.read())
    fields = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            if isinstance(node.ctx, ast.Store):
                fields.add(node.attr)
    return fields
