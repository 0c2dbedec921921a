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
LANGUAGES = ("en", "nl", "de", "it")[:1]


def catalog(code):
    """The TEXTS dict of ``firmware/lang_<code>.py``, read without importing it; a key
    given twice fails (a dict literal would keep the last one silently)."""
    with open(os.path.join(FIRMWARE, "lang_%s.py" % code), encoding="utf-8") as source:
        tree = ast.parse(source.read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and node.targets[0].id == "TEXTS":
            keys = [key.value for key in node.value.keys]
            assert len(keys) == len(set(keys)), [k for k in keys if keys.count(k) > 1]
            return ast.literal_eval(node.value)
    raise AssertionError("lang_%s.py has no TEXTS" % code)


def _sources():
    for folder, _dirs, files in os.walk(FIRMWARE):
        for name in files:
            if name.endswith(".py") and not name.startswith("lang_"):
                with open(os.path.join(folder, name), encoding="utf-8") as source:
                    yield os.path.relpath(os.path.join(folder, name), FIRMWARE), source.read()


def test_the_catalogs_on_the_device_are_the_languages_listed_here():
    found = sorted(name[5:-3] for name in os.listdir(FIRMWARE) if re.match(r"lang_[a-z]{2}\.py$", name))
    assert found == sorted(LANGUAGES)


def test_every_text_a_screen_looks_up_is_in_english():
    english = catalog("en")
    used = set()
    for name, text in _sources():
        for key in re.findall(r'\bT\["([a-z_0-9]+)"\]', text):
            assert key in english, "%s looks up %r" % (name, key)
            used.add(key)
    assert "who_starts" in used  # the scan sees the screens' lookups


def test_every_english_text_is_used():
    """A key no screen names (directly, or as a key string handed to one: the coach's
    reasons, the menu's lines, the boxes' ids) is a text no player reads."""
    sources = "\n".join(text for _name, text in _sources())
    for key in catalog("en"):
        assert '"%s"' % key in sources, key


def test_other_languages_translate_keys_english_has_in_its_shapes():
    english = catalog("en")
    for code in LANGUAGES:
        for key, text in catalog(code).items():
            assert key in english, (code, key)
            want = english[key]
            assert type(text) is type(want), (code, key)
            if isinstance(want, tuple):
                assert len(text) == len(want), (code, key)
