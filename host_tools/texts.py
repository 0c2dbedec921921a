"""The firmware's catalogs (firmware/lang_*.py) for the host commands that print the
game's words: ``--lang CODE`` (``score``, ``advise``, ``pull``, ``sim``) picks the
language, English by default. Every name the handheld shows (the boxes, the animals,
the players, the computer levels, the menu's values, the dice verdicts) is printed as
the handheld shows it in that language, from the same catalogs; a command's own
sentences stay English, and ``--json`` keeps the language-neutral ids.
"""

import os
import re

import host_tools

host_tools.use_firmware()

import lang  # noqa: E402  (firmware modules, importable after use_firmware)


def codes():
    """The languages the firmware has: English first, then the other catalogs by code."""
    found = sorted(name[5:-3] for name in os.listdir(host_tools.FIRMWARE) if re.match(r"lang_[a-z]{2,3}\.py$", name))
    return [lang.ENGLISH] + [code for code in found if code != lang.ENGLISH]


def add_option(parser):
    parser.add_argument(
        "--lang", default=lang.ENGLISH, help="the language of the game's words: %s" % ", ".join(codes())
    )


def use(code):
    """Make ``code`` the language of every text; UsageError (one line) for another."""
    if code not in codes():
        raise host_tools.UsageError("--lang %s: the languages are %s" % (code, " ".join(codes())))
    lang.use(code)


def text(key, item=None):
    """The text of ``key`` (item ``item`` of a list) in the language in use (English when
    no command chose one)."""
    if lang.code is None:
        lang.use(lang.ENGLISH)
    handle = getattr(lang.T, key)
    return lang.string(handle if item is None else lang.item(handle, item))


def box(ruleset, b, long=False):
    """Box ``b``'s name on ``ruleset``'s card: its short one (as the card view shows
    it), or its long one."""
    return text(ruleset.ids[b], 0 if long else 1)


def box_by_id(box_id, long=False):
    return text(box_id, 0 if long else 1)


def face(ruleset, die):
    """What a die showing ``die`` is called: its animal on the Zoo card, else the number."""
    return text(ruleset.ids[die - 1], 0) if ruleset.faces else str(die)


def person(name):
    """A name of the statistics (a seat, a computer level) as the records pages show it."""
    from ui import menu

    shown = menu.person(name)
    return shown if isinstance(shown, str) else lang.string(shown)
