"""Constants copied from another module keep their source's value.

Firmware modules copy a few ids as local ``const()``s (a local const costs no lookup and
no import on the device), each with a comment naming its source:
``_ROLL = const(5)  # drivers.buttons.ROLL``. This test finds every such line in
firmware/ and boards/ and compares it with the source, so a renumbered id cannot leave a
stale copy behind.
"""

import importlib
import os
import re

import host_tools

MIRROR = re.compile(
    r"^\s*(_?[A-Z][A-Z0-9_]*) = const\((-?(?:0x[0-9a-fA-F]+|\d+))\)\s*#\s*([a-z_][a-z0-9_.]*)\.([A-Z][A-Z0-9_]*)\b"
)


def mirrors():
    found = []
    for top in ("firmware", "boards"):
        for folder, _dirs, files in os.walk(os.path.join(host_tools.REPO, top)):
            for name in sorted(files):
                if not name.endswith(".py"):
                    continue
                path = os.path.join(folder, name)
                with open(path, encoding="utf-8") as f:
                    for number, line in enumerate(f, 1):
                        match = MIRROR.match(line)
                        if match:
                            found.append((os.path.relpath(path, host_tools.REPO), number) + match.groups())
    return found


def test_the_firmware_has_mirrored_constants_to_check():
    names = {(m[4], m[5]) for m in mirrors()}
    assert ("drivers.buttons", "ROLL") in names  # the pattern still matches how they are written


def test_every_mirrored_constant_equals_its_source():
    wrong = []
    for path, number, name, value, module, attr in mirrors():
        source = importlib.import_module(module)
        if not hasattr(source, attr):
            wrong.append("%s:%d %s names %s.%s, which does not exist" % (path, number, name, module, attr))
        elif getattr(source, attr) != int(value, 0):
            wrong.append(
                "%s:%d %s = %s, but %s.%s = %r" % (path, number, name, value, module, attr, getattr(source, attr))
            )
    assert not wrong, "\n".join(wrong)


def test_the_named_numbers_are_what_their_names_say():
    import game
    import rules

    card = rules.make_ruleset()
    assert rules.ALL_BOXES == sum(1 << b for b in range(card.n_boxes))  # every box of the card used
    assert rules.UPPER_ROW == 5 * 6 + 1  # an upper box's points 0..30: five sixes in Sixes
    assert game.ALL_HELD == sum(1 << i for i in range(5))  # every one of the five dice
