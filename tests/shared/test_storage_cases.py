"""Save/resume cases run by pytest AND inside real MicroPython (plain asserts only).

``FakeFs`` (fake_fs.py) is a tiny in-memory filesystem with power cuts and a capacity;
``card_of`` and ``steps_of_save`` (support.py) build a card and count a save's steps.
"""

import game as G
import save_records
import rules as R
import save_store
from game_dice import DiceSource
from fake_fs import FakeFs, PowerCut
from support import card_of, steps_of_save
from check import equal, true


def game_like(n):
    """A plain structure shaped like a saved game, different for every ``n``."""
    return {
        "id": 1000 + n,
        "seed": (n * 7919) & 0x3FFFFFFF,
        "counts": [n, 1, 2, 3, 4, 5],
        "game": {
            "v": 1,
            "rules": "forced",
            "phase": 1,
            "round": n % 13,
            "current": n % 2,
            "first": 0,
            "contenders": [0, 1],
            "dice": [1 + n % 6, 2, 3, 4, 5],
            "held": n & 0x1F,
            "rolls": 1 + n % 3,
            "players": [
                ["ANN", "human", card_of([3, 6, n % 19])],
                ["CPU", "hard", card_of([-1, 4, 9, 16, 25, 30, 22])],
            ],
        },
    }


def states_after(base, count):
    return [game_like(base + i) for i in range(count)]


def saved_fs(values, base="data/game"):
    fs = FakeFs(dirs=["", "data"])
    store = save_store.Store(base, fs)
    for value in values:
        store.save(value)
    return fs


def test_crc32_matches_the_ieee_check_value():
    equal(save_store.crc32(b"123456789"), bytes((0x26, 0x39, 0xF4, 0xCB)))  # 0xCBF43926
    equal(save_store.crc32(b""), bytes(4))


def test_round_trip_of_game_like_values_and_edge_ints():
    for n in range(20):
        value = game_like(n)
        equal(save_store.decode(save_store.encode(value)), value)
    edges = [-1, 0, 62, 63, -2, 127, 128, -129, 2**30 - 1, -(2**30), 2**40, -(2**40), 1575]
    equal(save_store.decode(save_store.encode(edges)), edges)
    texts = ["", "x" * 31, "y" * 32, "Zoë", b"\x00\xff", None, True, False, {}, [], {7: [1]}]
    equal(save_store.decode(save_store.encode(texts)), texts)


def test_a_card_costs_one_byte_per_box():
    card = card_of([3, 6, 9, 12, 15, 18, 22, 0, 25, 30, 40, 50, 21])
    equal(len(save_store.encode(card)), 1 + 14)


def test_nothing_saved_loads_none():
    store = save_store.Store("data/game", FakeFs(dirs=["", "data"]))
    assert store.load() is None


def test_first_save_makes_the_folder():
    fs = FakeFs()
    save_store.Store("data/game", fs).save([1, 2])
    true("data" in fs.dirs, fs.dirs)
    equal(save_store.Store("data/game", fs.reboot()).load(), [1, 2])


def test_a_prepared_file_is_the_one_saved_and_a_cut_keeps_last_or_previous():
    """``prepare`` packs in one frame what ``save`` writes in another (two short stretches,
    not one); the write is the same one, so a cut during it leaves the last or the previous save."""
    values = states_after(0, 3)
    fs = saved_fs(values[:2])
    store = save_store.Store("data/game", fs.reboot())
    data = store.prepare(values[2])
    total = steps_of_save(fs, values[2])
    for cut in range(0, total + 1, 7):
        trial = fs.reboot()
        trial.cut_at = cut
        store = save_store.Store("data/game", trial)
        prepared = store.prepare(values[2])
        equal(prepared, data)  # packing writes nothing: the same file each time
        try:
            store.save(values[2], prepared)
        except PowerCut:
            pass
        loaded = save_store.Store("data/game", trial.reboot()).load()
        assert loaded == values[2] or loaded == values[1], cut


def test_a_prepared_file_made_stale_by_another_save_is_packed_again():
    values = states_after(0, 3)
    fs = saved_fs(values[:1])
    store = save_store.Store("data/game", fs)
    stale = store.prepare(values[1])
    store.save(values[2])  # a save between the packing and its write (session.save)
    store.save(values[1], stale)  # its sequence number is taken: packed again
    equal(save_store.Store("data/game", fs.reboot()).load(), values[1])
    equal(store.seq, 3)
    store.save(values[2], b"")  # no file (its packing failed): packed now
    equal(save_store.Store("data/game", fs.reboot()).load(), values[2])


def test_power_cut_at_every_step_of_a_save_keeps_last_or_previous():
    values = states_after(0, 3)
    fs = saved_fs(values[:2])
    total = steps_of_save(fs, values[2])
    true(total > 150, total)  # every byte of the file is a cut point
    seen_new = seen_old = 0
    for cut in range(total + 1):
        trial = fs.reboot()
        trial.cut_at = cut
        store = save_store.Store("data/game", trial)
        try:
            store.save(values[2])
        except PowerCut:
            pass
        rebooted = trial.reboot()
        after = save_store.Store("data/game", rebooted)
        loaded = after.load()
        assert loaded == values[2] or loaded == values[1], cut
        equal(after.damaged, [])
        if loaded == values[2]:
            seen_new += 1
        else:
            seen_old += 1
        # and the resumed store saves on normally
        after.save(values[0])
        equal(save_store.Store("data/game", rebooted.reboot()).load(), values[0])
    equal(seen_old, total)  # only the final rename publishes the new save
    equal(seen_new, 1)


def test_cuts_in_a_row_lose_at_most_the_save_in_progress():
    fs = saved_fs([game_like(0)])
    last = game_like(0)
    seed = 12345
    for n in range(1, 30):
        value = game_like(n)
        seed = (seed * 1103515245 + 12345) & 0x7FFFFFFF
        fs = fs.reboot()
        fs.cut_at = seed % 260  # sometimes beyond the end: the save completes
        try:
            save_store.Store("data/game", fs).save(value)
            last = value
        except PowerCut:
            pass
        loaded = save_store.Store("data/game", fs.reboot()).load()
        assert loaded == last or loaded == value, n
        last = loaded


def test_disk_full_is_a_named_error_and_keeps_the_previous_save():
    fs = saved_fs(states_after(0, 2))
    fs = fs.reboot()
    fs.capacity = fs.used() + 40  # room for part of the temp file only
    store = save_store.Store("data/game", fs)
    equal(store.load(), game_like(1))
    try:
        store.save(game_like(2))
        raise AssertionError("a full disk must raise")
    except save_store.SaveError as err:
        equal(err.reason, save_store.FULL)
    true("data/game.tmp" not in fs.files, fs.files)
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(1))
    fs.capacity = None  # space freed: saving works again
    store.save(game_like(3))
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(3))


def _damage(fs, path, how):
    data = fs.files[path]
    if how == "flip":
        data[len(data) // 2] ^= 0x10
    elif how == "cut":
        fs.files[path] = data[: len(data) - 3]
    elif how == "version":
        data[2] = 99
    elif how == "magic":
        data[0] = ord("Q")


def test_damaged_files_are_named_and_set_aside():
    for how, reason in (
        ("flip", save_store.CORRUPT),
        ("cut", save_store.TRUNCATED),
        ("version", save_store.UNKNOWN_VERSION),
        ("magic", save_store.CORRUPT),
    ):
        fs = saved_fs([game_like(1)])
        _damage(fs, "data/game.a", how)
        store = save_store.Store("data/game", fs)
        try:
            store.load()
            raise AssertionError("damage must raise: " + how)
        except save_store.SaveError as err:
            equal(err.reason, reason, (how, err.reason))
            equal(err.path, "data/game.a")
        equal(store.set_aside(), ["data/game.a.bad"])
        true("data/game.a.bad" in fs.files, fs.files)  # kept for inspection
        assert store.load() is None  # a fresh start
        store.save(game_like(2))
        equal(save_store.Store("data/game", fs.reboot()).load(), game_like(2))
        true("data/game.a.bad" in fs.files, fs.files)


def test_damaged_newest_slot_falls_back_to_the_previous():
    fs = saved_fs(states_after(0, 2))  # game.a holds 0, game.b holds 1
    _damage(fs, "data/game.b", "flip")
    store = save_store.Store("data/game", fs)
    equal(store.load(), game_like(0))
    equal(store.damaged, [("data/game.b", save_store.CORRUPT)])
    store.save(game_like(5))  # reuses the damaged slot but keeps a copy of it
    true("data/game.b.bad" in fs.files, fs.files)
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(5))


def test_clear_cut_anywhere_leaves_nothing_or_the_last_save():
    values = states_after(0, 2)
    fs = saved_fs(values)
    for cut in range(3):
        trial = fs.reboot()
        trial.cut_at = cut
        try:
            save_store.Store("data/game", trial).clear()
        except PowerCut:
            pass
        loaded = save_store.Store("data/game", trial.reboot()).load()
        assert loaded is None or loaded == values[1], cut


def _play(game, actions):
    """Apply a list of actions: "roll", ("hold", die), ("score", box) or "best"."""
    out = [0] * R.N_BOXES
    for action in actions:
        if action == "roll":
            game.roll()
        elif action == "best":
            game.options(out)
            best = 0
            for box in range(R.N_BOXES):
                if out[box] > out[best]:
                    best = box
            game.score(best)
        else:
            game.toggle_hold(action[1])


def _snapshot(game, dice, game_id):
    return {"id": game_id, "seed": dice.checkpoint(), "game": game.to_state()}


def test_resume_mid_turn_continues_the_same_dice_after_any_power_cut():
    for choice in ("forced", "zoo"):  # the save layer knows no ruleset: both cards
        _resume_after_cuts(R.make_ruleset(choice))


def _resume_after_cuts(ruleset):
    dice = DiceSource(seed=4242)
    game = G.Game(ruleset, [("ANN", "human"), ("BOB", "human")], dice)
    while game.phase == G.ROLLOFF:
        game.rolloff()
    fs = FakeFs(dirs=["", "data"])
    store = save_store.Store("data/game", fs)
    saves = []
    for action in ("roll", ("hold", 0), ("hold", 3), "roll", "best", "roll", ("hold", 2)):
        _play(game, [action])
        saves.append(_snapshot(game, dice, 77))
        store.save(saves[-1])
    final = saves[-1]
    game.roll()  # what an uninterrupted game rolls next
    expected_dice = list(game.dice)
    # a power cut during the save of one more action
    _play(game, [("hold", 1)])
    extra = _snapshot(game, dice, 77)
    total = steps_of_save(fs, extra)
    for cut in range(total):
        trial = fs.reboot()
        trial.cut_at = cut
        try:
            save_store.Store("data/game", trial).save(extra)
        except PowerCut:
            pass
        saved = save_store.Store("data/game", trial.reboot()).load()
        equal(saved, final, cut)
        resumed_dice = DiceSource(seed=1)
        resumed_dice.restore(saved["seed"])
        resumed = G.Game.from_state(saved["game"], resumed_dice)
        equal(resumed.to_state(), final["game"])
        equal(resumed.rules.name, ruleset.name)
        resumed.roll()
        equal(resumed.dice, expected_dice)


def _results(n):
    return [
        ("ANN", 200 + n, card_of([3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 40, 50, 22])),
        ("BOB", 150 + n, card_of([1, 2, 3, 4, 5, 6])),
    ]


def test_records_survive_a_cut_at_every_step_and_files_stay_independent():
    fs = FakeFs(dirs=["", "data"])
    recs = save_records.Records("data", fs)
    recs.load()
    recs.finish_game(11, _results(0), [1, 2, 3, 4, 5, 6])
    recs.add_high_score(200, "ANN", 11, 0)
    probe = fs.reboot()
    probe_recs = save_records.Records("data", probe)
    probe_recs.load()
    probe_recs.finish_game(12, _results(5), [6, 5, 4, 3, 2, 1])
    total = probe.steps
    for cut in range(total + 1):
        trial = fs.reboot()
        trial.cut_at = cut
        recs = save_records.Records("data", trial)
        recs.load()
        try:
            recs.finish_game(12, _results(5), [6, 5, 4, 3, 2, 1])
        except PowerCut:
            pass
        rebooted = trial.reboot()
        after = save_records.Records("data", rebooted)
        after.load()
        equal(after.problems, [])
        true(after.stats["all"][save_records.GAMES] in (2, 4), after.stats["all"][save_records.GAMES], (2, 4), what=cut)
        true(
            after.rolls["faces"] in ([1, 2, 3, 4, 5, 6], [7, 7, 7, 7, 7, 7]),
            after.rolls["faces"],
            ([1, 2, 3, 4, 5, 6], [7, 7, 7, 7, 7, 7]),
            what=cut,
        )
        equal(after.scores, [[200, "ANN", 11, 0]])
        # finishing again after the reboot counts the game exactly once
        after.finish_game(12, _results(5), [6, 5, 4, 3, 2, 1])
        again = save_records.Records("data", rebooted.reboot())
        again.load()
        equal(again.stats["all"][save_records.GAMES], 4)
        equal(again.rolls["faces"], [7, 7, 7, 7, 7, 7])


def test_one_damaged_records_file_costs_only_itself():
    fs = FakeFs(dirs=["", "data"])
    recs = save_records.Records("data", fs)
    recs.load()
    recs.finish_game(11, _results(0), [1, 2, 3, 4, 5, 6])
    recs.add_high_score(200, "ANN", 11, 0)
    _damage(fs, "data/stats.a", "flip")
    after = save_records.Records("data", fs.reboot())
    after.load()
    equal(after.problems, [("stats", save_store.CORRUPT)])
    equal(after.stats, save_records.new_stats())
    equal(after.scores, [[200, "ANN", 11, 0]])
    equal(after.rolls["faces"], [1, 2, 3, 4, 5, 6])


def test_zoo_records_are_kept_apart_from_the_standard_cards():
    fs = FakeFs(dirs=["", "data"])
    zoo = R.make_ruleset("zoo")
    kids = save_records.Records("data", fs, zoo)
    kids.load()
    zoo_card = [5, 3, 3, 3, 3, 1, 10, 15, 15, 20, 30, 0]  # upper 18: bonus; a Zoo Yahtzy
    kids.finish_game(21, [("ANN", 128, zoo_card)], [1, 1, 1, 1, 1, 1])
    equal(kids.add_high_score(128, "ANN", 21, 0), 0)
    fs = fs.reboot()
    grown = save_records.Records("data", fs)
    grown.load()
    equal(grown.scores, [])
    equal(grown.stats["all"][save_records.GAMES], 0)
    equal(grown.rolls["faces"], [1, 1, 1, 1, 1, 1])  # the dice are the same dice
    grown.finish_game(22, _results(0), [2, 2, 2, 2, 2, 2])
    grown.add_high_score(200, "ANN", 22, 0)
    fs = fs.reboot()
    again = save_records.Records("data", fs, zoo)
    again.load()
    equal(again.problems, [])
    equal(again.scores, [[128, "ANN", 21, 0]])
    equal(again.stats["all"], [1, 128, 128, 1, 1])  # games, points, best, Zoo Yahtzys, bonus games
    equal(again.rolls["faces"], [3, 3, 3, 3, 3, 3])
    equal(save_records.Records("data", fs.reboot(), R.make_ruleset("free")).stores["scores"].base, "data/scores")


# --- intact frames, wrong contents ------------------------------------------------------
def _seven_scores():
    return [[300 - i * 10, "AB" + "CDEFGHI"[i], 100 + i, 0] for i in range(7)]


def test_a_valid_frame_with_wrong_contents_falls_back_to_the_older_slot_once():
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/scores", fs).save(_seven_scores())  # scores.a: 7 entries
    save_store.Store("data/scores", fs).save({"weird": [1, 2, 3]})  # scores.b: newer, correct CRC
    weird = bytes(fs.files["data/scores.b"])
    recs = save_records.Records("data", fs)
    recs.load()
    equal(recs.scores, _seven_scores())
    equal(recs.problems, [("scores", save_store.SHAPE)])
    equal(recs.older, ["scores"])
    equal(recs.unkept, [])
    equal(bytes(fs.files["data/scores.b.bad"]), weird)  # really kept aside
    true("data/scores.b" not in fs.files, fs.files)
    fs = fs.reboot()
    again = save_records.Records("data", fs)
    again.load()
    equal(again.problems, [])
    equal(again.scores, _seven_scores())  # said once
    # a new high score keeps all seven: the intact slot is never overwritten by a fresh table
    equal(again.add_high_score(305, "NEW", 200, 0), 0)
    after = save_records.Records("data", fs.reboot())
    after.load()
    equal(after.scores, [[305, "NEW", 200, 0]] + _seven_scores())
    equal(after.problems, [])


def test_wrong_contents_in_both_slots_start_fresh_and_the_next_save_wins():
    fs = FakeFs(dirs=["", "data"])
    plain = save_store.Store("data/rolls", fs)
    plain.save({"last": 3, "faces": [1, 2, 3]})
    plain.save(["not", "rolls"])
    store = save_store.Store("data/rolls", fs, save_records.rolls_ok)
    try:
        store.load()
        raise AssertionError("no intact slot must raise")
    except save_store.SaveError as err:
        equal(err.reason, save_store.SHAPE)
    equal(sorted(store.set_aside()), ["data/rolls.a.bad", "data/rolls.b.bad"])
    store.save(save_records.new_rolls())
    equal(save_store.Store("data/rolls", fs.reboot(), save_records.rolls_ok).load(), save_records.new_rolls())


def test_each_records_shape_is_checked_as_strictly_as_its_frame():
    good_stats = {"last": 5, "all": [2, 400, 250, 1, 1], "names": {"ANN": [2, 400, 250, 1, 1]}}
    assert save_records.scores_ok(_seven_scores())
    assert save_records.scores_ok([])
    assert save_records.stats_ok(good_stats)
    assert save_records.stats_ok(save_records.new_stats())
    assert save_records.rolls_ok(save_records.new_rolls())
    bad_scores = (
        {"weird": [1, 2, 3]},
        [[300, "ABC", 1]],
        [[300, "AB", 1, 0]],
        [[300, 123, 1, 0]],
        [[200, "ABC", 1, 0], [300, "ABD", 2, 0]],
        [[True, "ABC", 1, 0]],
        [[-5, "ABC", 1, 0]],
        [[300, "ABC", "x", 0]],
        [[300, "ABC", 1, 0]] * 11,
        [[9999, "ABC", 1, 0]],
        None,
        "scores",
    )
    for value in bad_scores:
        assert not save_records.scores_ok(value), value
    bad_stats = (
        {"weird": [1, 2, 3]},
        {"last": 1, "all": [0, 0, 0, 0, 0]},
        {"last": "1", "all": [0, 0, 0, 0, 0], "names": {}},
        {"last": 1, "all": [0, 0, 0, 0], "names": {}},
        {"last": 1, "all": [0, 0, 0, 0, -1], "names": {}},
        {"last": 1, "all": [0, 0, 0, 0, 0], "names": {"ANN": [1, 2]}},
        {"last": 1, "all": [0, 0, 0, 0, 0], "names": {7: [0, 0, 0, 0, 0]}},
        {"last": 1, "all": [0, 0, 0, 0, 0], "names": []},
        [1, 2, 3],
    )
    for value in bad_stats:
        assert not save_records.stats_ok(value), value
    bad_rolls = (
        {"weird": [1, 2, 3]},
        {"last": 1, "faces": [1, 2, 3, 4, 5]},
        {"last": 1, "faces": [1, 2, 3, 4, 5, "6"]},
        {"faces": [0] * 6},
        {"last": 1, "faces": [0, 0, 0, 0, 0, -1]},
        {"last": None, "faces": [0] * 6},
    )
    for value in bad_rolls:
        assert not save_records.rolls_ok(value), value


def test_a_game_save_that_cannot_be_resumed_falls_back_to_the_older_slot():
    import save_boot

    dice = DiceSource(seed=9)
    game = G.Game(R.make_ruleset(), [("ANN", "human")], dice)
    game.roll()
    good = {"id": 77, "seed": dice.position(), "counts": [1, 1, 1, 1, 1, 0], "game": game.to_state()}
    assert save_boot.save_ok(good)
    broken = dict(good)
    broken["game"] = {"v": 1, "rules": "forced"}
    for bad in (
        broken,
        {"weird": [1, 2, 3]},
        [1, 2],
        dict(good, id=0),
        dict(good, counts=[1] * 5),
        dict(good, seed=[1, 1 << 23]),
        dict(good, seed=5),
    ):
        assert not save_boot.save_ok(bad), bad
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/game", fs).save(good)
    save_store.Store("data/game", fs).save(broken)
    store = save_store.Store("data/game", fs, save_boot.save_ok)
    equal(store.load(), good)
    equal(store.damaged, [("data/game.b", save_store.SHAPE)])


# --- obstacles on the flash --------------------------------------------------------------
def test_data_being_a_file_is_moved_aside_and_saving_works_again():
    fs = FakeFs(files={"data": bytearray(b"not a folder")})
    store = save_store.Store("data/game", fs)
    assert store.load() is None
    equal(store.damaged, [])  # nothing saved there: no false alarm
    equal(store.repair(), ["data"])  # what the session does at boot
    equal(bytes(fs.files["data.bad"]), b"not a folder")
    true("data" in fs.dirs, fs.dirs)
    store.save(game_like(1))
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(1))
    equal(store.repaired, ["data"])  # for the message, until the caller clears it


def test_a_save_repairs_what_is_in_its_way_and_retries_once():
    for obstacle in ("data", "data/game.tmp", "data/game.a"):
        fs = FakeFs(dirs=["", "data"])
        if obstacle == "data":
            fs.files["data"] = bytearray(b"x")
            fs.dirs = [""]
        else:
            fs.dirs.append(obstacle)
            fs.files[obstacle + "/inside"] = bytearray(b"kept")
        store = save_store.Store("data/game", fs)
        store.save(game_like(2))  # no SaveError: the obstacle went aside first
        # a folder at a slot is a damaged slot (unreadable), kept aside by the save itself
        equal(store.repaired, [] if obstacle == "data/game.a" else [obstacle], obstacle)
        equal(save_store.Store("data/game", fs.reboot()).load(), game_like(2))
        if obstacle != "data":
            equal(bytes(fs.files[obstacle + ".bad/inside"]), b"kept")  # moved whole, not lost
        store.save(game_like(3))  # and every save after it works
        equal(save_store.Store("data/game", fs.reboot()).load(), game_like(3))


def test_a_folder_where_a_bad_file_should_go_is_moved_aside_first():
    fs = saved_fs([game_like(1)])
    _damage(fs, "data/game.a", "flip")
    fs.dirs.append("data/game.a.bad")
    fs.files["data/game.a.bad/note"] = bytearray(b"mine")
    store = save_store.Store("data/game", fs)
    try:
        store.load()
        raise AssertionError("damage must raise")
    except save_store.SaveError as err:
        equal(err.reason, save_store.CORRUPT)
    damaged_copy = bytes(fs.files["data/game.a"])
    equal(store.set_aside(), ["data/game.a.bad"])
    equal(bytes(fs.files["data/game.a.bad"]), damaged_copy)  # the message "kept as .bad" is true
    equal(bytes(fs.files["data/game.a.bad.bad/note"]), b"mine")
    store.save(game_like(4))
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(4))


def test_records_keep_the_older_copy_when_the_bad_one_meets_a_folder():
    fs = FakeFs(dirs=["", "data", "data/scores.b.bad"])
    save_store.Store("data/scores", fs).save(_seven_scores())
    save_store.Store("data/scores", fs).save({"weird": [1, 2, 3]})
    recs = save_records.Records("data", fs)
    recs.load()
    equal(recs.scores, _seven_scores())
    equal(recs.older, ["scores"])
    equal(recs.unkept, [])
    true("data/scores.b.bad.bad" in fs.dirs, fs.dirs)
    true("data/scores.b.bad" in fs.files, fs.files)


def test_a_damaged_slot_that_cannot_be_kept_aside_never_stops_saving():
    fs = saved_fs(states_after(0, 2))
    _damage(fs, "data/game.b", "flip")
    for name in ("data/game.b.bad", "data/game.b.bad.bad", "data/game.b.bad.bad.bad", "data/game.b.bad.bad.bad.bad"):
        fs.dirs.append(name)  # a chain of folders deeper than the store follows
    store = save_store.Store("data/game", fs)
    equal(store.load(), game_like(0))
    equal(store.set_aside(), [])  # could not be moved: the caller says "not moved aside"
    store.save(game_like(7))  # replaces the damaged slot instead
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(7))
    equal(save_store.Store("data/game", fs.reboot()).load(), game_like(7))


class _RefusingFs(FakeFs):
    """A flash that refuses every rename (a filesystem beyond repair)."""

    def rename(self, old, new):
        raise OSError(5)


def test_when_even_the_repair_fails_the_save_fails_cleanly():
    fs = saved_fs([game_like(1)])
    refusing = _RefusingFs(fs.files, list(fs.dirs) + ["data/game.tmp"])
    store = save_store.Store("data/game", refusing)
    try:
        store.save(game_like(2))
        raise AssertionError("must fail")
    except save_store.SaveError as err:
        equal(err.reason, save_store.IO)
    equal(save_store.Store("data/game", refusing.reboot()).load(), game_like(1))


def test_records_that_cannot_be_kept_aside_are_replaced_and_reported_once():
    fs = FakeFs(dirs=["", "data"])
    save_store.Store("data/scores", fs).save(_seven_scores())
    save_store.Store("data/scores", fs).save({"weird": [1, 2, 3]})
    for name in (
        "data/scores.b.bad",
        "data/scores.b.bad.bad",
        "data/scores.b.bad.bad.bad",
        "data/scores.b.bad.bad.bad.bad",
    ):
        fs.dirs.append(name)  # deeper than the store follows: the bad copy cannot be kept
    recs = save_records.Records("data", fs)
    recs.load()
    equal(recs.problems, [("scores", save_store.SHAPE)])
    equal(recs.unkept, ["scores"])
    equal(recs.scores, _seven_scores())
    fs = fs.reboot()
    again = save_records.Records("data", fs)
    again.load()
    equal(again.problems, [])
    equal(again.scores, _seven_scores())  # said once, nothing lost


def test_the_zoo_cards_records_pass_their_shape_checks_and_bad_contents_fall_back():
    zoo = R.make_ruleset("zoo")
    fs = FakeFs(dirs=["", "data"])
    kids = save_records.Records("data", fs, zoo)
    kids.load()
    zoo_card = [5, 3, 3, 3, 3, 1, 10, 15, 15, 20, 30, 0]  # 11 boxes + bonus slot; total 128
    kids.finish_game(31, [("ANN", 128, zoo_card), ("BOB", 0, [0] * 11 + [0])], [1, 2, 3, 4, 5, 6])
    equal(kids.add_high_score(128, "ANN", 31, 0), 0)
    assert save_records.scores_ok(kids.scores)
    assert save_records.stats_ok(kids.stats)
    equal(kids.stores["scores"].base, "data/zoo_scores")
    equal(kids.stores["stats"].base, "data/zoo_stats")
    good = [list(entry) for entry in kids.scores]
    # a Zoo scores file with a valid frame and wrong contents: the older copy, once
    save_store.Store("data/zoo_scores", fs).save([[128, "ANN", 31]])
    fs = fs.reboot()
    again = save_records.Records("data", fs, zoo)
    again.load()
    equal(again.problems, [("scores", save_store.SHAPE)])
    true("data/zoo_scores.b.bad" in fs.files, fs.files)
    true("data/scores.a" not in fs.files, fs.files)
    equal(again.scores, good)
    equal(again.stats["all"], [2, 128, 128, 1, 1])
    quiet = save_records.Records("data", fs.reboot(), zoo)
    quiet.load()
    equal(quiet.problems, [])
    equal(quiet.scores, good)  # said once
