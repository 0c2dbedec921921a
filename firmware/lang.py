"""The languages the handheld speaks: every text a player reads comes from a catalog.

A catalog is a module ``lang_<code>.py`` beside this one with ``TEXTS``, a dict of key ->
text (a str, or a tuple of str for a list such as the computer levels; a box's name is
the pair ``(long, short)``). ``lang_en.py`` holds every key; another language's catalog
holds the keys it translates, and any it lacks fall back to English key by key. The
languages on a device are the catalogs on it (``codes()``), so adding one is one file
(docs/architecture.md, "A language").

``use(code)`` loads English, lays the language's catalog over it into ``T`` (one dict,
made once and refilled, so ``from lang import T`` stays valid) and forgets both modules,
so only the chosen language's texts stay on the heap. Screens read ``T[key]``, a dict
lookup that allocates nothing; strings are resolved here, once per change of language,
never per frame. ``card(ruleset)`` resolves the names of a card's boxes into ``names``
(long) and ``short`` (the turn list and the card view) for the game being played.

Only the UI layer reads this module: the game, the rules and the save layer keep
language-neutral ids (box ids, "P1", "human"), so saves, records and tables do not
change with the language.
"""
import sys

ENGLISH = "en"
T = {}  # the chosen language's texts, English where its catalog has no entry
code = None  # the language loaded (None before the first use)
names = ()  # the game's boxes in its card's order: long names (card)
short = ()  # and the names that fit the turn list and the card view
_codes = None  # the languages found on this device (codes)


def use(want):
    """Make ``want`` (a language code) the language of every text; English when there is
    no catalog for it on this device. Returns the code in use."""
    global code, names, short
    T.clear()
    T.update(_texts(ENGLISH))
    code = ENGLISH
    if want != ENGLISH:
        try:
            T.update(_texts(want))
            code = want
        except ImportError:
            pass  # not on this device (make flash LANG=...): English
    names = short = ()
    return code


def _texts(language):
    """A catalog's TEXTS; the module itself is forgotten (its code is garbage once the
    texts are in T)."""
    name = "lang_" + language
    try:
        return __import__(name).TEXTS
    finally:
        if name in sys.modules:
            del sys.modules[name]


def codes():
    """The languages on this device, English first, then by code: every catalog module
    (``lang_<code>.py`` or ``.mpy``) in a folder on the import path."""
    global _codes
    if _codes is None:
        import os

        found = []
        for folder in sys.path:
            try:
                files = os.listdir(folder or ".")
            except OSError:
                continue
            for file in files:
                dot = file.find(".")
                if file.startswith("lang_") and file[dot:] in (".py", ".mpy") and file[5:dot] not in found:
                    found.append(file[5:dot])
        found.sort()
        if ENGLISH in found:
            found.remove(ENGLISH)
        _codes = [ENGLISH] + found
    return _codes


def next_code(current, step=1):
    """The language after ``current`` in ``codes()`` (wrapping; ``step`` -1: before)."""
    found = codes()
    at = found.index(current) if current in found else 0
    return found[(at + step) % len(found)]


def card(ruleset):
    """Resolve the names of ``ruleset``'s boxes (by their ids) into ``names`` and
    ``short``; once per game and per change of language."""
    global names, short
    names = tuple(T[box_id][0] for box_id in ruleset.ids)
    short = tuple(T[box_id][1] for box_id in ruleset.ids)
