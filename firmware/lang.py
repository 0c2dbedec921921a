"""The languages the handheld speaks: every text a player reads comes from a catalog.

A catalog is a module ``lang_<code>.py`` beside this one whose ``TEXTS`` is a string of
lines ``key = text`` (``#`` lines are notes for translators), or a tuple of such
strings, a part of the screens each, so that no string is long and a device whose heap
is in pieces still loads it. A text that is a list (the computer levels, a box's long
and short name, a message's lines) separates its items with ``|``. ``lang_en.py`` has
every key; another language's catalog has the keys it translates, and any it lacks fall
back to English key by key. The languages on a device are the catalogs on it
(lang_en.py ``codes()``), so adding one is one file (docs/architecture.md, "A language").

``use(code)`` resolves the language once (lang_en.py's resolver, loaded only while it
runs): its texts, English where it has none, become
one bytearray ``blob`` of glyph numbers (one byte a character, the fonts' order: ASCII
32..126, then ``LETTERS``), and each key an attribute of ``T`` holding a small int
handle, ``offset << 8 | length`` (so a text's length is ``handle & 0xFF``). Screens
draw ``T.<key>`` (ui/draw.py and ui/font.py take a handle where they take a str): an
attribute lookup and a blit a glyph, no str made, so a frame allocates nothing; the
catalogs' own strings are garbage once resolved, and only the blob and T's entries stay
on the heap. ``item(handle, i)`` is the i-th item of a list, ``string(handle)`` the text
as a str (messages, host tools). ``card(ruleset)`` resolves the names of a card's boxes
(by their ids) into ``names`` and ``short``; ``fit`` and ``box_name`` pick the long
name where it fits, else the short one.

Only the UI layer and the host tools read this module: the game, the rules and the save
layer keep language-neutral ids (box ids, "P1", "human", message keys), so saves, records
and tables do not change with the language.
"""

import sys

from micropython import const

ENGLISH = "en"
# Beyond printable ASCII: the letters the languages need (Dutch ij is the two letters i
# and j) and the menu's boxes for off and on (empty, filled), in the fonts' order (their
# tables follow it: host_tools/fonts).
LETTERS = "äöüßÄÖÜëïéèàìòùÉÈ\u2610\u2611"
_N_ASCII = const(95)
_BAR = const(92)  # the glyph of "|", between a list's items
_QUESTION = const(31)  # "?": a character no font draws (tests/shared/test_lang_cases.py)


class _Texts:
    """The chosen language's texts: one attribute a key, its value a handle."""


T = _Texts()
blob = bytearray(0)  # the texts' glyph numbers, one byte a character
code = None  # the language in use (None before the first use)
names = ()  # the game's boxes in its card's order: handles of their long names (card)
short = ()  # and of the names that fit the turn list and the card view


def use(want, step=0):
    """Make ``want`` (a language code) the language of every text; English when there is
    no catalog for it on this device. ``step`` 1 (-1): the language after (before)
    ``want`` in the device's list instead (the menu's Language line; lang_en.codes).
    Returns the code in use. The resolver is lang_en.py's, loaded only while it runs and
    forgotten after: its code and strings are garbage then."""
    global blob, code, names, short
    blob = None  # the texts in use out of the way of the new ones
    names = short = ()
    try:
        english = __import__("lang_en")
        blob, code = english.resolve(english.next_code(want, step) if step else want)
    finally:
        if "lang_en" in sys.modules:
            del sys.modules["lang_en"]
    return code


def glyph(char):
    """The fonts' glyph number of a one-character string; ``?``'s when they have none."""
    number = ord(char) - 32
    if 0 <= number < _N_ASCII:
        return number
    at = LETTERS.find(char)
    return _N_ASCII + at if at >= 0 else _QUESTION


def item(handle, i):
    """The handle of item ``i`` of a list (``a|b|c``); the last item past its end."""
    at = handle >> 8
    end = at + (handle & 0xFF)
    start = at
    while at < end:
        if blob[at] == _BAR:
            if i == 0:
                break
            i -= 1
            start = at + 1
        at += 1
    return start << 8 | (at - start)


def string(handle):
    """A text as a str (allocates: for messages and the host tools, not for frames)."""
    chars = []
    at = handle >> 8
    for i in range(at, at + (handle & 0xFF)):
        number = blob[i]
        chars.append(chr(32 + number) if number < _N_ASCII else LETTERS[number - _N_ASCII])
    return "".join(chars)


def fit(handle, cols):
    """A long|short pair's long text when it has at most ``cols`` characters, else its
    short one."""
    long = item(handle, 0)
    return long if long & 0xFF <= cols else item(handle, 1)


def box_name(box, cols):
    """Box ``box``'s long name when it fits ``cols`` columns, else its short one (card)."""
    return names[box] if names[box] & 0xFF <= cols else short[box]


def card(ruleset):
    """Resolve the names of ``ruleset``'s boxes (by their ids) into ``names`` and
    ``short``; once per game and per change of language."""
    global names, short
    names = tuple(item(getattr(T, box_id), 0) for box_id in ruleset.ids)
    short = tuple(item(getattr(T, box_id), 1) for box_id in ruleset.ids)
