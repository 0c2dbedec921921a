"""Saves the firmware cannot write back are refused at load; any save that fails is a
SaveError. Run by pytest AND inside real MicroPython.

The rule (firmware/save_bounds.py): a shape check accepts only what the firmware can make and
save again, so the largest value each check accepts still packs into its 16 KiB frame
and loads in the MicroPython heap these cases run in; the records' counts saturate.
"""

import save_bounds
import game as G
import save_records
import game_state
import rules as R
import save_boot
import save_store
from game_dice import DiceSource
from fake_fs import FakeFs
from check import equal, true

_LONG = "\u4e00" * save_bounds.MAX_NAME  # the widest name in bytes: 3 per character in UTF-8


def _game_save(players=(("ANN", "human"),), counts=None):
    dice = DiceSource(seed=9)
    game = G.Game(R.make_ruleset(), list(players), dice)
    if game.phase == G.TURN:
        game.roll()
    return {
        "id": 77,
        "seed": dice.position(),
        "counts": counts or [1, 1, 1, 1, 1, 0],
        "game": game.to_state(),
        "coach": 1,
    }


def _biggest_stats():
    entry = [save_bounds.MAX_TALLY] * 5
    entry[save_records.BEST] = R.card_bounds("yahtzee")[0]
    names = {}
    for i in range(save_records.MAX_NAMES):
        names[_LONG[:-2] + "%02d" % i] = list(entry)
    return {"last": save_bounds.MAX_ID, "games": save_bounds.MAX_TALLY, "all": list(entry), "names": names}


def test_a_game_save_is_refused_when_its_counts_or_players_exceed_one_game():
    assert save_boot.save_ok(_game_save())
    assert save_boot.save_ok(_game_save(counts=[save_bounds.MAX_GAME_DICE, 0, 0, 0, 0, 0]))
    four = [("P%d" % i, "human") for i in range(1, 5)]
    assert save_boot.save_ok(_game_save(four))
    five = _game_save(four + [("P5", "human")])  # the engine plays five; the device does not
    for bad in (
        _game_save(counts=[(1 << 63) - 1, 0, 0, 0, 0, 0]),  # the largest count a crafted save held
        _game_save(counts=[save_bounds.MAX_GAME_DICE, 1, 0, 0, 0, 0]),
        _game_save(counts=[save_bounds.MAX_GAME_DICE + 1, 0, 0, 0, 0, 0]),
        five,
        _game_save([("x" * (save_bounds.MAX_NAME + 1), "human")]),
        _game_save([("ANN", "k" * (save_bounds.MAX_NAME + 1))]),
        _game_save([("", "human")]),
        dict(_game_save(), id=save_bounds.MAX_ID + 1),
        dict(_game_save(), seed=[1 << 40, 0]),
    ):
        assert not save_boot.save_ok(bad), bad


def test_the_largest_game_save_the_check_accepts_saves_again():
    players = [(_LONG[:-1] + str(i), "k" * save_bounds.MAX_NAME) for i in range(save_bounds.MAX_PLAYERS)]
    value = _game_save(players, [save_bounds.MAX_GAME_DICE, 0, 0, 0, 0, 0])
    assert save_boot.save_ok(value)
    fs = FakeFs(dirs=["", "data"])
    assert save_store.Store("data/game", fs).save(value) < 16384
    equal(save_store.Store("data/game", fs.reboot(), save_boot.save_ok).load(), value)


def test_records_refuse_what_no_game_makes_and_accept_what_games_make():
    assert save_records.rolls_ok({"last": 1, "faces": [save_bounds.MAX_TALLY] * 6})
    assert not save_records.rolls_ok({"last": 1, "faces": [(1 << 63) - 4] + [0] * 5})  # a crafted face count
    assert not save_records.rolls_ok({"last": save_bounds.MAX_ID + 1, "faces": [0] * 6})
    assert save_records.stats_ok(_biggest_stats())
    long_name = _biggest_stats()
    long_name["names"]["N" * (save_bounds.MAX_NAME + 1)] = long_name["names"].pop(_LONG[:-2] + "00")
    one = [1, 250, 250, 1, 1]
    for bad in (
        long_name,
        {"last": 1, "games": save_bounds.MAX_TALLY + 1, "all": one, "names": {}},
        {"last": 1, "all": [1, 200, 250, 1, 1], "names": {}},  # best above all points
        {"last": 1, "all": [1, 2000, 250, 1, 1], "names": {}},  # points above one game's
        {"last": 1, "all": [1, 250, 250, 14, 1], "names": {}},  # 14 Yahtzees in 13 rounds
        {"last": 1, "all": [1, 250, 250, 1, 2], "names": {}},  # two bonuses in one game
        {"last": 1, "all": [0, 0, 0, 1, 0], "names": {}},
    ):
        assert not save_records.stats_ok(bad), bad
    assert not save_records.scores_ok([[300, "ABC", 1, save_bounds.MAX_PLAYERS]])
    assert not save_records.scores_ok([[300, "ABC", save_bounds.MAX_ID + 1, 0]])


def test_the_largest_records_the_checks_accept_save_again():
    fs = FakeFs(dirs=["", "data"])
    recs = save_records.Records("data", fs)
    recs.load()
    recs.stats = _biggest_stats()
    recs.rolls = {"last": save_bounds.MAX_ID, "faces": [save_bounds.MAX_TALLY] * 6}
    recs.scores = [[1575, _LONG[:3], save_bounds.MAX_ID, save_bounds.MAX_PLAYERS - 1]] * save_records.MAX_SCORES
    for name in ("scores", "stats", "rolls"):
        assert recs.save(name) < 16384, name
    card = R.new_card()
    card[R.YAHTZEE] = 50
    # A game counted into full tallies saturates: its files still load as they were saved.
    equal(recs.finish_game(5, [("P1", 50, card)], [10] * 6), [])
    again = save_records.Records("data", fs.reboot())
    again.load()
    equal(again.problems, [])
    equal(again.rolls["faces"], [save_bounds.MAX_TALLY] * 6)
    equal(again.stats, recs.stats)
    equal(again.stats["all"], _biggest_stats()["all"])
    equal(again.stats["names"]["P1"], [1, 50, 50, 1, 0])
    equal(len(again.stats["names"]), save_records.MAX_NAMES)


def test_a_stats_file_of_long_names_is_damage_not_a_crash():
    # The crafted file is 16 names of ~1,000 characters (16,376 bytes: booted at the
    # simulator's heap in tests/sim/test_hostile_saves_sim.py); names of 100 are as wrong.
    names = {}
    for i in range(16):
        names["N%02d" % i + "x" * 100] = [1, 250, 250, 1, 1]
    value = {"last": 1, "games": 16, "all": [16, 4000, 250, 16, 16], "names": names}
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/stats", fs).save(value)
    del value, names
    recs = save_records.Records("data", fs.reboot())
    recs.load()
    equal(recs.problems, [("stats", save_store.SHAPE)])
    equal(recs.stats, save_records.new_stats())


def test_every_failure_to_save_is_a_save_error_and_keeps_the_last_save():
    fs = FakeFs(dirs=["", "data"])
    store = save_store.Store("data/game", fs)
    store.save("kept")
    for value in ({"counts": [1 << 63]}, b"x" * 16384, {"f": 1.5}, {(1, 2): 3}):
        try:
            store.save(value)
            raise AssertionError("saved %r" % (value,))
        except save_store.SaveError as err:
            # 16 KiB may first run out of RAM in the encoder (MicroPython's 192K heap)
            assert err.reason == save_store.UNSAVABLE or (err.reason == save_store.NO_MEMORY and type(value) is bytes)
    true("data/game.tmp" not in fs.files, fs.files)
    equal(save_store.Store("data/game", fs.reboot()).load(), "kept")


def test_a_rolls_count_beyond_the_bounds_is_set_aside_and_the_game_counted():
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/rolls", fs).save({"last": 3, "faces": [(1 << 63) - 4] + [0] * 5})
    recs = save_records.Records("data", fs.reboot())
    recs.load()
    equal(recs.problems, [("rolls", save_store.SHAPE)])
    true("data/rolls.a.bad" in recs.stores["rolls"].fs.files, recs.stores["rolls"].fs.files)
    equal(recs.finish_game(9, [("P1", 5, R.new_card())], [1, 2, 3, 4, 5, 6]), [])
    equal(recs.rolls["faces"], [1, 2, 3, 4, 5, 6])


def test_card_bounds_come_from_each_cards_table():
    for choice, top, yahtzees in (("forced", 1575, 13), ("zoo", 130, 1)):
        ruleset = R.make_ruleset(choice)
        equal(R.card_bounds(ruleset.card), (top, yahtzees))
        # the same figure from every score each box can hold (game_state.possible_points)
        possible = game_state.possible_points(ruleset)
        best = 0
        for box in range(ruleset.n_boxes):
            best += possible[box][-1]
        upper = 0
        for box in range(ruleset.n_upper):
            upper += possible[box][-1]
        best += ruleset.upper_bonus if upper >= ruleset.upper_threshold else 0
        best += ruleset.yahtzee_bonus * (ruleset.n_boxes - 1)
        equal(best, top, choice)


def test_zoo_records_are_checked_against_the_zoo_cards_bounds():
    zoo = R.make_ruleset("zoo")
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/zoo_scores", fs).save([[1500, "ABC", 1, 0]])
    save_store.Store("data/zoo_stats", fs).save({"last": 1, "all": [1, 100, 100, 13, 1], "names": {}})
    save_store.Store("data/scores", fs).save([[1500, "ABC", 1, 0]])  # the standard card can
    save_store.Store("data/stats", fs).save({"last": 1, "all": [1, 1500, 1500, 13, 1], "names": {}})
    kids = save_records.Records("data", fs.reboot(), zoo)
    kids.load()
    equal(kids.problems, [("scores", save_store.SHAPE), ("stats", save_store.SHAPE)])
    equal(kids.scores, [])
    equal(kids.stats, save_records.new_stats())
    standard = save_records.Records("data", fs.reboot())
    standard.load()
    equal(standard.problems, [])
    equal(standard.scores, [[1500, "ABC", 1, 0]])
    ok = save_records.Records("data", FakeFs(dirs=["", "data"]), zoo)
    save_store.Store("data/zoo_scores", ok.stores["scores"].fs).save([[130, "ABC", 1, 0]])
    ok.load()
    equal(ok.problems, [])
    equal(ok.scores, [[130, "ABC", 1, 0]])
