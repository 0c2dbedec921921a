"""save_records.py: high-score order and ties, statistics, the roll histogram and chi-square."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import save_bounds
import save_records
import save_records_view
import rules as R
import save_store
from fake_fs import FakeFs
from support import card_of


# --- high scores ----------------------------------------------------------------------
def test_ties_keep_both_with_the_earlier_entry_first():
    scores = []
    assert save_records.add_score(scores, 200, "AAA", 1, 0) == 0
    assert save_records.add_score(scores, 250, "BBB", 2, 0) == 0
    assert save_records.add_score(scores, 200, "CCC", 3, 0) == 2
    assert save_records.add_score(scores, 200, "DDD", 3, 1) == 3
    assert [e[1] for e in scores] == ["BBB", "AAA", "CCC", "DDD"]


def test_table_holds_ten_and_a_tie_with_the_tenth_does_not_enter():
    scores = []
    for n in range(10):
        save_records.add_score(scores, 100 + 10 * n, "P%02d" % n, n + 1, 0)
    assert len(scores) == 10
    assert scores[-1][0] == 100
    assert save_records.score_place(scores, 100) == -1
    assert save_records.add_score(scores, 100, "TIE", 50, 0) == -1
    assert save_records.add_score(scores, 101, "NEW", 51, 0) == 9
    assert len(scores) == 10
    assert scores[-1][1] == "NEW"
    assert save_records.add_score(scores, 999, "TOP", 52, 0) == 0
    assert [e[0] for e in scores] == sorted((e[0] for e in scores), reverse=True)


def test_the_same_game_and_seat_enters_once():
    scores = []
    assert save_records.add_score(scores, 300, "ANN", 9, 0) == 0
    assert save_records.add_score(scores, 300, "ANN", 9, 0) == -1
    assert len(scores) == 1


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=10), st.lists(st.integers(0, 400), min_size=1, max_size=4))
def test_game_places_are_where_each_seat_ends(table, totals):
    # The place shown while asking a seat's initials is computed for all seats
    # of the game at once, and entering them in the order given lands each exactly there.
    scores = []
    for n in range(len(table)):
        save_records.add_score(scores, table[n], "OLD", 100 + n, 0)
    places = save_records.game_places(scores, totals, 7)
    for seat, _place in places:
        save_records.add_score(scores, totals[seat], "S%02d" % seat, 7, seat)
    for seat, place in places:
        assert scores[place][1:] == ["S%02d" % seat, 7, seat]
    entered = {e[3] for e in scores if e[2] == 7}
    assert entered == {seat for seat, place in places}


def test_a_better_later_seat_does_not_move_an_earlier_seats_place():
    # The reported case: P1 was shown "Place 2" and ended 3rd behind P2's better score.
    scores = [[300, "OLD", 1, 0], [150, "OLD", 2, 0]]
    assert save_records.game_places(scores, [200, 250], 9) == [(1, 1), (0, 2)]
    full = [[300 - n, "OLD", 100 + n, 0] for n in range(9)] + [[100, "OLD", 120, 0]]
    assert save_records.game_places(full, [150, 120, 50], 9) == [(0, 9)]  # 120 pushed out by 150


def test_games_and_player_results_are_counted_apart_and_computer_levels_kept_apart():
    # Games apart from results: "Games 3" after 2 games (a solo and a 2-seat game) was wrong.
    from ui import menu

    stats = save_records.new_stats()
    card = R.new_card()
    assert menu.computer_name("casual") == "CPU casual"
    assert menu.computer_name("cpu") == "CPU"
    save_records.add_game(stats, 1, [("P1", 200, card)])
    save_records.add_game(
        stats,
        2,
        [
            ("P1", 210, card),
            (menu.computer_name("optimal"), 250, card),
            (menu.computer_name("casual"), 190, card),
        ],
    )
    assert save_records.games_played(stats) == 2
    assert stats["all"][save_records.GAMES] == 4
    assert save_records_view.games_played(stats) == 2
    assert sorted(stats["names"]) == ["CPU casual", "CPU optimal", "P1"]
    assert stats["names"]["CPU optimal"][save_records.BEST] == 250
    old = {"last": 5, "all": [3, 600, 250, 0, 0], "names": {"P1": [2, 400, 250, 0, 0], "CPU": [1, 200, 200, 0, 0]}}
    assert save_records.games_played(old) == 2  # a file from before "games": a lower bound
    save_records.add_game(old, 6, [("P1", 100, card)])
    assert old["games"] == 3


def test_initials_must_be_three_letters():
    for bad in ("", "AB", "ABCD"):
        try:
            save_records.add_score([], 10, bad, 1, 0)
        except ValueError:
            continue
        raise AssertionError(bad)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=40))
def test_table_is_the_stable_top_ten(totals):
    scores = []
    for n, total in enumerate(totals):
        save_records.add_score(scores, total, "X%02d" % (n % 100), n + 1, 0)
    # a stable sort of all entries (earlier first among equals), cut at ten
    expected = sorted(enumerate(totals), key=lambda item: -item[1])[:10]
    assert [(e[2] - 1, e[0]) for e in scores] == expected


# --- statistics -----------------------------------------------------------------------
FULL_UPPER = [3, 6, 9, 12, 15, 18]  # exactly 63


def test_stats_count_games_average_best_yahtzees_and_bonus_rate():
    stats = save_records.new_stats()
    yahtzee_card = card_of(FULL_UPPER + [20, 0, 25, 30, 40, 50, 22])
    yahtzee_card[R.BONUS] = 200  # two more Yahtzees
    plain_card = card_of([1, 2, 3, 4, 5, 6, 0, 0, 0, 0, 0, 0, 10])
    assert save_records.add_game(stats, 5, [("ANN", 500, yahtzee_card), ("BOB", 31, plain_card)])
    assert save_records.add_game(stats, 6, [("ANN", 200, plain_card)])
    assert not save_records.add_game(stats, 6, [("ANN", 200, plain_card)])  # counted once
    assert save_records_view.summary(stats["names"]["ANN"]) == (2, 3500, 500, 3, 50)
    assert save_records_view.summary(stats["names"]["BOB"]) == (1, 310, 31, 0, 0)
    assert save_records_view.summary(stats["all"]) == (3, 2437, 500, 3, 33)
    assert save_records_view.summary(save_records.new_stats()["all"]) == (0, 0, 0, 0, 0)


def test_stats_best_can_be_zero_and_names_are_capped():
    stats = save_records.new_stats()
    save_records.add_game(stats, 1, [("ZED", 0, card_of([]))])
    assert stats["names"]["ZED"][save_records.BEST] == 0
    for n in range(save_records.MAX_NAMES + 3):
        save_records.add_game(stats, 100 + n, [("N%d" % n, 10, card_of([])), ("ZED", 5, card_of([]))])
    assert len(stats["names"]) == save_records.MAX_NAMES
    assert "ZED" in stats["names"]  # the most played name stays


def test_yahtzee_box_zero_counts_no_yahtzee():
    card = card_of([0] * 13)
    assert save_records.yahtzees_in(card) == 0
    assert not save_records.upper_bonus_in(card_of([3, 6, 9, 12, 15, 17]))
    assert save_records.upper_bonus_in(card_of(FULL_UPPER))


# --- roll histogram and fairness ------------------------------------------------------
def test_only_rolled_dice_are_counted():
    import save_session  # count_roll lives there: it runs during play, save_records.py does not

    counts = [0] * 6
    save_session.count_roll(counts, [1, 2, 3, 4, 5], 0)
    save_session.count_roll(counts, [6, 6, 3, 4, 5], 0b11100)  # dice 2..4 held
    assert counts == [1, 1, 1, 1, 1, 2]


def test_histogram_merges_each_game_once():
    hist = save_records.new_rolls()
    assert save_records.add_rolls(hist, 3, [1, 2, 3, 4, 5, 6])
    assert not save_records.add_rolls(hist, 3, [1, 2, 3, 4, 5, 6])
    assert save_records.add_rolls(hist, 4, [1, 1, 1, 1, 1, 1])
    assert hist["faces"] == [2, 3, 4, 5, 6, 7]


def _chi_square_float(faces):
    total = sum(faces)
    expected = total / 6
    return sum((n - expected) ** 2 / expected for n in faces)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 100000), min_size=6, max_size=6).filter(lambda f: sum(f) > 0))
def test_integer_chi_square_matches_the_float_formula(faces):
    stat, _verdict = save_records_view.chi_square(faces)
    assert abs(stat - 1000 * _chi_square_float(faces)) <= 1


def test_verdicts_follow_the_five_degrees_of_freedom_critical_values():
    assert save_records_view.chi_square([0] * 6) == (0, save_records_view.TOO_FEW)
    assert save_records_view.chi_square([5, 5, 5, 5, 5, 4])[1] == save_records_view.TOO_FEW  # 29 rolls
    assert save_records_view.chi_square([100] * 6) == (0, save_records_view.FAIR)
    # 600 rolls: chi-square = (a**2 + b**2) / 100 for faces 100+a, 100-b
    assert save_records_view.chi_square([123, 77, 100, 100, 100, 100]) == (10580, save_records_view.FAIR)
    assert save_records_view.chi_square([124, 76, 100, 100, 100, 100]) == (11520, save_records_view.DOUBTFUL)
    assert save_records_view.chi_square([127, 73, 100, 100, 100, 100]) == (14580, save_records_view.DOUBTFUL)
    assert save_records_view.chi_square([128, 72, 100, 100, 100, 100]) == (15680, save_records_view.UNFAIR)
    from host_tools import pull, texts

    texts.use("en")
    assert texts.text("verdicts", save_records_view.UNFAIR) == "Unfair dice!"
    assert pull.thousandths(11070) == "11.07"
    assert pull.thousandths(15086) == "15.09"


def test_fair_dice_mostly_look_fair_and_loaded_dice_do_not():
    rng = random.Random(2024)
    fair_verdicts = []
    for _ in range(200):
        faces = [0] * 6
        for _roll in range(600):
            faces[rng.randint(0, 5)] += 1
        fair_verdicts.append(save_records_view.chi_square(faces)[1])
    # about 95% of fair samples pass at 5%; allow plenty of room either way
    assert fair_verdicts.count(save_records_view.FAIR) >= 175
    assert fair_verdicts.count(save_records_view.UNFAIR) <= 10
    loaded = [0] * 6
    for _roll in range(600):
        loaded[5 if rng.random() < 0.25 else rng.randint(0, 5)] += 1
    assert save_records_view.chi_square(loaded)[1] == save_records_view.UNFAIR


# --- the Records files ----------------------------------------------------------------
def test_records_round_trip_and_wrong_shapes_start_fresh():
    fs = FakeFs()
    recs = save_records.Records("data", fs)
    recs.load()
    assert recs.problems == []
    assert recs.scores == []
    assert recs.finish_game(7, [("ANN", 250, card_of(FULL_UPPER))], [3, 3, 3, 3, 3, 3]) == []
    assert recs.add_high_score(250, "ANN", 7, 0) == 0
    again = save_records.Records("data", fs.reboot())
    again.load()
    assert (again.scores, again.stats, again.rolls) == (recs.scores, recs.stats, recs.rolls)
    save_store.Store("data/stats", fs).save(["not", "stats"])  # a valid frame, the wrong shape
    fs = fs.reboot()
    third = save_records.Records("data", fs)
    third.load()
    assert third.problems == [("stats", save_store.SHAPE)]
    assert third.older == ["stats"]
    assert third.stats == recs.stats
    assert third.scores == recs.scores  # the older copy
    assert "data/stats.b.bad" in fs.files
    bad = save_store.Store("data/stats", fs)
    bad.save({"last": 1})  # both slots the wrong shape: no intact copy left, a fresh start
    bad.save({"last": 2})
    fourth = save_records.Records("data", fs.reboot())
    fourth.load()
    assert fourth.problems == [("stats", save_store.SHAPE)]
    assert fourth.older == []
    assert fourth.stats == save_records.new_stats()


def test_full_disk_keeps_play_going_and_reports_the_files():
    fs = FakeFs()
    recs = save_records.Records("data", fs)
    recs.load()
    recs.finish_game(1, [("ANN", 100, card_of([]))], [1] * 6)
    fs.capacity = fs.used()
    assert recs.finish_game(2, [("ANN", 120, card_of([]))], [2] * 6) == ["stats", "rolls"]
    after = save_records.Records("data", fs.reboot())
    after.load()
    assert after.stats["all"][save_records.GAMES] == 1
    assert after.rolls["faces"] == [1] * 6


def test_a_seat_already_entered_is_not_asked_again():
    scores = []
    save_records.add_score(scores, 300, "ANN", 9, 0)
    assert save_records.score_place(scores, 300, 9, 0) == -1
    assert save_records.score_place(scores, 300, 9, 1) == 1
    assert save_records.score_place(scores, 300) == 1


_GAME = st.tuples(
    st.integers(1, save_bounds.MAX_ID),  # the ids save_session._new_game_id makes
    st.lists(
        st.tuples(
            st.sampled_from(["ANN", "BOB", "CPU"] + ["P%d" % i for i in range(20)]),
            st.integers(0, 1575),
            st.integers(0, 4),
        ),
        min_size=1,
        max_size=4,
    ),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_GAME, max_size=25))
def test_records_the_code_writes_always_pass_their_shape_checks(games):
    # The load-time checks must never call a real records file damaged.
    recs = save_records.Records("data", FakeFs())
    recs.load()
    for game_id, players in games:
        results = [(name, total, card_of([5 * fives] + [-1] * 10 + [50, 0])) for name, total, fives in players]
        recs.finish_game(game_id, results, [len(players)] * 6)
        for seat in range(len(players)):
            if save_records.score_place(recs.scores, players[seat][1], game_id, seat) >= 0:
                recs.add_high_score(players[seat][1], "ABC", game_id, seat)
    assert save_records.scores_ok(recs.scores)
    assert save_records.stats_ok(recs.stats)
    assert save_records.rolls_ok(recs.rolls)
