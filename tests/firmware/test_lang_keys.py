"""The catalogs and the screens agree (firmware/lang.py): every text a screen looks up is
in the English catalog, every English text is looked up somewhere, and every other
catalog translates keys English has, with values of the same shape (a str, or a tuple of
as many). Read from the sources, so a key typed wrong fails here, not on a screen."""

import ast
import os
import re

import host_tools

FIRMWARE = os.path.join(host_tools.REPO, "firmware")
# The languages the handheld speaks: one row per catalog (adding a language: its file in
# firmware/ and its row here; docs/architecture.md, "A language").
LANGUAGES = ("en", "nl", "de", "it")


def catalog(code):
    """The texts of ``firmware/lang_<code>.py`` as {key: text}, read without importing it
    (the ``key = text`` lines of its TEXTS, a string or a tuple of them); a key given
    twice fails."""
    with open(os.path.join(FIRMWARE, "lang_%s.py" % code), encoding="utf-8") as source:
        tree = ast.parse(source.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "TEXTS":
            texts = {}
            parts = ast.literal_eval(node.value)
            for line in "\n".join((parts,) if isinstance(parts, str) else parts).splitlines():
                if line and not line.startswith("#"):
                    key, eq, text = line.partition(" = ")
                    assert eq, line
                    assert re.match(r"[a-z][a-z_0-9]*$", key), line
                    assert key not in texts, key
                    texts[key] = text
            return texts
    raise AssertionError("lang_%s.py has no TEXTS" % code)


def _sources():
    for folder, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py") and not name.startswith("lang_"):
                with open(os.path.join(folder, name), encoding="utf-8") as source:
                    yield os.path.relpath(os.path.join(folder, name), FIRMWARE), source.read()


def catalog_codes(folder=FIRMWARE):
    """The codes of the catalogs in ``folder``, sorted."""
    return sorted(name[5:-3] for name in os.listdir(folder) if re.match(r"lang_[a-z]{2,3}\.py$", name))


def test_the_catalogs_on_the_device_are_the_languages_listed_here():
    assert catalog_codes() == sorted(LANGUAGES)


def test_every_text_a_screen_looks_up_is_in_english():
    english = catalog("en")
    used = set()
    for name, text in _sources():
        for key in re.findall(r"\bT\.([a-z_0-9]+)", text):
            assert key in english, "%s looks up %r" % (name, key)
            used.add(key)
    assert "who_starts" in used  # the scan sees the screens' lookups


def test_every_english_text_is_used():
    """A key no screen names (directly, or as a key string handed to one: the coach's
    reasons, the menu's lines, the boxes' ids, a save's reason as save_store.why words
    it) is a text no player reads."""
    sources = "\n".join(text for _name, text in _sources())
    with open(os.path.join(FIRMWARE, "save_store.py")) as f:
        reasons = re.findall(r'^[A-Z_]+ = "([a-z ]+)"', f.read(), re.M)
    whys = {"why_" + reason.replace(" ", "_") for reason in reasons}
    for key in catalog("en"):
        assert key in whys or re.search(r'\bT\.%s\b|"%s"' % (key, key), sources), key


def test_other_languages_translate_keys_english_has_in_its_shapes():
    """A list has as many items in every language (a box: its long and short name)."""
    english = catalog("en")
    for code in LANGUAGES:
        for key, text in catalog(code).items():
            assert key in english, (code, key)
            assert text.count("|") == english[key].count("|"), (code, key)


def test_every_text_fits_its_handle():
    """A resolved text's handle keeps its length in a byte (lang.py): 255 characters."""
    for code in LANGUAGES:
        for key, text in catalog(code).items():
            assert len(text) <= 255, (code, key, len(text))
