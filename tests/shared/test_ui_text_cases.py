"""The menu's saved set-up and the messages' word wrap, run by pytest
AND inside real MicroPython (plain asserts only): what the save layer writes and checks,
and how a long message is broken into the OLED's 16-column lines.
"""

from ui import menu
from ui import pages
from check import equal, true


def test_a_set_up_round_trips_and_the_defaults_pass_the_check():
    settings = menu.Settings({})
    assert menu.setup_ok(settings.saved())
    settings.change(menu.PLAYERS)  # 3 players
    settings.change(menu.SEAT1 + 2)  # P3 casual -> human
    settings.change(menu.JOKER)  # forced -> in order: lost with the Zoo card (saved as "zoo")
    settings.change(menu.CARD)  # the standard card -> the Zoo card
    settings.change(menu.COACH)
    settings.change(menu.SOUND)
    settings.change(menu.LEDS, -3)
    value = settings.saved()
    assert menu.setup_ok(value)
    again = menu.Settings({})
    again.restore(value)
    equal(again.saved(), value)
    assert again.zoo()
    equal(again.items, settings.items)
    equal(again.player_list(), [("P1", "human"), ("P2", "casual"), ("P3", "human")])


def test_a_set_up_saved_before_the_languages_still_loads_in_english():
    value = menu.Settings({}).saved()
    equal(value["lang"], "en")
    del value["lang"]
    assert menu.setup_ok(value)
    again = menu.Settings({})
    again.restore(value)
    equal(again.lang, "en")
    value["lang"] = "xyz"  # a language this device lacks: its set-up loads, in English
    assert menu.setup_ok(value)
    again.restore(value)
    equal(again.lang, "en")


def test_the_set_up_check_refuses_every_other_shape():
    good = menu.Settings({}).saved()
    bad = [
        None,
        3,
        "x",
        [],
        {},
        dict(good, players=0),
        dict(good, players=5),
        dict(good, players=True),
        dict(good, kinds=["human"] * 3),
        dict(good, kinds=["human", "cpu", "casual", "casual"]),
        dict(good, kinds="human"),
        dict(good, rules="yahtzee"),
        dict(good, rules=0),
        dict(good, ybonus=2),
        dict(good, coach=3),
        dict(good, coach=-1),
        dict(good, sound="on"),
        dict(good, leds=16),
        dict(good, extra=1),
        dict(good, lang="EN"),
        dict(good, lang="english"),
        dict(good, lang="n1"),
        dict(good, lang=3),
        dict(good, lang=None),
    ]
    without = dict(good)
    del without["leds"]
    bad.append(without)
    for value in bad:
        assert not menu.setup_ok(value), value


def test_messages_wrap_at_spaces():
    equal(
        pages.wrap("ROLL held at power-on: game skipped, REPL ready."),
        [
            "ROLL held at",
            "power-on: game",
            "skipped, REPL",
            "ready.",
        ],
    )
    equal(pages.wrap("Game not saved.\nPlay goes on;  it\nsaves"), ["Game not saved.", "Play goes on; it", "saves"])
    equal(pages.wrap("x" * 20 + " y"), ["x" * 16, "xxxx y"])  # only a word longer than a line is cut
    equal(pages.wrap("a b c d e f g h i", 1, 3), ["a", "b", "c"])
    for line in pages.wrap("MemoryError: memory allocation failed, allocating 2032 bytes"):
        true(0 < len(line) <= 16, len(line))
