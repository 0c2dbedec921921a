"""Every rule and worked example of docs/rules.md, against firmware/rules.py.

Runs under pytest and inside the real MicroPython (tests/firmware/test_on_micropython.py).
"""

import game_state
import rules as R
from support import card_with
from check import equal, true

FORCED = R.make_ruleset()
ID = R.BOX_IDS.index


def options(dice, card=None, rules=FORCED):
    out = [0] * R.N_BOXES
    R.score_options(rules, card or R.new_card(), dice, out)
    return out


def points(dice, box, card=None, rules=FORCED):
    return options(dice, card, rules)[ID(box)]


def test_box_table_has_the_canonical_ids_in_card_order():
    equal(
        R.BOX_IDS,
        (
            "aces",
            "twos",
            "threes",
            "fours",
            "fives",
            "sixes",
            "three_kind",
            "four_kind",
            "full_house",
            "small_straight",
            "large_straight",
            "yahtzee",
            "chance",
        ),
    )
    equal(R.BOX_IDS[R.YAHTZEE], "yahtzee")


def test_upper_boxes_sum_the_matching_dice():
    equal(points([1, 3, 3, 3, 5], "threes"), 9)
    equal(points([4, 4, 4, 2, 6], "fours"), 12)
    equal(points([1, 1, 2, 6, 6], "aces"), 2)
    equal(points([1, 1, 2, 6, 6], "sixes"), 12)
    equal(points([1, 1, 2, 6, 6], "fives"), 0)


def test_kinds_score_all_five_dice():
    equal(points([4, 4, 4, 2, 2], "three_kind"), 16)
    equal(points([3, 3, 3, 3, 6], "four_kind"), 18)
    equal(points([3, 3, 3, 3, 6], "three_kind"), 18)
    equal(points([3, 3, 2, 2, 6], "three_kind"), 0)
    equal(points([3, 3, 3, 2, 6], "four_kind"), 0)


def test_full_house_and_three_of_a_kind_examples():
    equal(points([3, 3, 3, 5, 5], "full_house"), 25)
    equal(points([3, 3, 3, 5, 5], "three_kind"), 19)
    equal(points([6, 6, 6, 5, 5], "three_kind"), 28)
    equal(points([6, 6, 6, 5, 5], "full_house"), 25)
    equal(points([6, 6, 6, 6, 5], "full_house"), 0)


def test_five_equal_is_not_a_full_house_without_the_joker():
    equal(points([3, 3, 3, 3, 3], "full_house"), 0)
    equal(points([3, 3, 3, 3, 3], "yahtzee"), 50)


def test_small_straights_including_a_pair_inside():
    equal(points([2, 3, 4, 5, 5], "small_straight"), 30)
    equal(points([1, 2, 3, 3, 4], "small_straight"), 30)
    equal(points([3, 4, 5, 6, 6], "small_straight"), 30)
    equal(points([1, 3, 4, 5, 6], "small_straight"), 30)
    equal(points([1, 2, 3, 5, 6], "small_straight"), 0)
    equal(points([6, 4, 1, 3, 2], "small_straight"), 30)  # order of the dice does not matter


def test_large_straight_also_scores_as_small():
    for dice in ([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [5, 3, 6, 2, 4]):
        equal(points(dice, "large_straight"), 40)
        equal(points(dice, "small_straight"), 30)


def test_large_straight_check_stays_inside_the_faces():
    equal(points([3, 4, 5, 6, 6], "large_straight"), 0)
    equal(points([1, 2, 3, 4, 6], "large_straight"), 0)
    equal(points([6, 6, 6, 6, 6], "large_straight"), 0)


def test_chance_and_yahtzee():
    equal(points([1, 2, 3, 4, 6], "chance"), 16)
    equal(points([2, 2, 2, 2, 2], "yahtzee"), 50)
    equal(points([2, 2, 2, 2, 3], "yahtzee"), 0)


def test_a_zero_may_go_in_any_open_box():
    out = options([1, 2, 3, 5, 6])
    equal(out[ID("yahtzee")], 0)
    equal(out[ID("full_house")], 0)
    assert all(value >= 0 for value in out)


def test_filled_boxes_are_not_offered():
    out = options([3, 3, 3, 5, 5], card_with(full_house=25))
    equal(out[ID("full_house")], -1)
    equal(out[ID("three_kind")], 19)


def test_upper_bonus_at_exactly_63():
    card = card_with(aces=3, twos=6, threes=9, fours=12, fives=15, sixes=18)
    equal(R.totals(FORCED, card), (63, 35, 0, 0, 98))
    card[ID("aces")] = 2
    equal(R.totals(FORCED, card), (62, 0, 0, 0, 62))


def test_totals_are_the_sum_of_their_parts():
    card = card_with(aces=3, sixes=24, three_kind=20, yahtzee=50, chance=22, yahtzee_bonus=200)
    equal(R.totals(FORCED, card), (27, 0, 92, 200, 319))


def test_yahtzee_bonus_only_for_a_further_yahtzee_on_a_50():
    equal(R.yahtzee_bonus_for(FORCED, card_with(yahtzee=50), [5, 5, 5, 5, 5]), 100)
    equal(R.yahtzee_bonus_for(FORCED, card_with(yahtzee=0), [5, 5, 5, 5, 5]), 0)
    equal(R.yahtzee_bonus_for(FORCED, R.new_card(), [5, 5, 5, 5, 5]), 0)
    # A used Yahtzee box never pays for other dice.
    equal(R.yahtzee_bonus_for(FORCED, card_with(yahtzee=50), [5, 5, 5, 5, 4]), 0)
    no_bonus = R.make_ruleset("forced", yahtzee_bonus=False)
    equal(R.yahtzee_bonus_for(no_bonus, card_with(yahtzee=50), [5, 5, 5, 5, 5]), 0)


def legal(dice, card, rules=FORCED):
    out = options(dice, card, rules)
    return dict((R.BOX_IDS[b], out[b]) for b in range(R.N_BOXES) if out[b] >= 0)


def test_forced_joker_step_1_upper_box_of_the_face():
    equal(legal([4, 4, 4, 4, 4], card_with(yahtzee=50)), {"fours": 20})
    equal(legal([4, 4, 4, 4, 4], card_with(yahtzee=0)), {"fours": 20})


def test_forced_joker_step_2_any_open_lower_box_pays_in_full():
    card = card_with(yahtzee=50, fours=12)
    equal(
        legal([4, 4, 4, 4, 4], card),
        {
            "three_kind": 20,
            "four_kind": 20,
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 20,
        },
    )


def test_forced_joker_step_3_zero_in_an_upper_box():
    card = card_with(
        yahtzee=50,
        fours=12,
        three_kind=20,
        four_kind=20,
        full_house=25,
        small_straight=30,
        large_straight=40,
        chance=20,
    )
    equal(legal([4, 4, 4, 4, 4], card), {"aces": 0, "twos": 0, "threes": 0, "fives": 0, "sixes": 0})


def test_ordered_joker_prefers_three_and_four_of_a_kind():
    ordered = R.make_ruleset("ordered")
    card = card_with(yahtzee=50, fours=12)
    equal(legal([4, 4, 4, 4, 4], card, ordered), {"three_kind": 20, "four_kind": 20})
    card[ID("three_kind")] = 17
    equal(legal([4, 4, 4, 4, 4], card, ordered), {"four_kind": 20})
    card[ID("four_kind")] = 0
    equal(
        legal([4, 4, 4, 4, 4], card, ordered),
        {
            "full_house": 25,
            "small_straight": 30,
            "large_straight": 40,
            "chance": 20,
        },
    )
    equal(legal([4, 4, 4, 4, 4], card_with(yahtzee=50), ordered), {"fours": 20})


def test_free_joker_any_box_fixed_boxes_pay_once_the_face_is_filled():
    free = R.make_ruleset("free")
    open_face = legal([4, 4, 4, 4, 4], card_with(yahtzee=50), free)
    equal(open_face["fours"], 20)
    equal(open_face["aces"], 0)
    equal(open_face["full_house"], 0)
    equal(open_face["large_straight"], 0)
    equal(open_face["three_kind"], 20)
    filled_face = legal([4, 4, 4, 4, 4], card_with(yahtzee=50, fours=8), free)
    equal(filled_face["full_house"], 25)
    equal(filled_face["small_straight"], 30)
    equal(filled_face["large_straight"], 40)
    equal(filled_face["aces"], 0)


def test_no_joker_scores_a_further_yahtzee_like_any_roll():
    none = R.make_ruleset("none")
    out = legal([4, 4, 4, 4, 4], card_with(yahtzee=50, fours=12), none)
    equal(out["full_house"], 0)
    equal(out["large_straight"], 0)
    equal(out["aces"], 0)
    equal(out["chance"], 20)
    equal(R.yahtzee_bonus_for(none, card_with(yahtzee=50), [4, 4, 4, 4, 4]), 100)


def test_joker_flag_reported():
    out = [0] * R.N_BOXES
    assert R.score_options(FORCED, card_with(yahtzee=50), [2, 2, 2, 2, 2], out) is True
    assert R.score_options(FORCED, R.new_card(), [2, 2, 2, 2, 2], out) is False
    assert R.score_options(R.make_ruleset("none"), card_with(yahtzee=50), [2, 2, 2, 2, 2], out) is False


def test_strategic_zero_example_both_boxes_legal():
    card = R.new_card()
    for box in range(1, R.N_BOXES):
        if box != ID("sixes"):
            card[box] = 0
    equal(legal([2, 3, 4, 5, 6], card), {"aces": 0, "sixes": 6})


def test_bad_dice_are_rejected_by_name():
    out = [0] * R.N_BOXES
    for dice in ([1, 2, 3, 4], [1, 2, 3, 4, 7], [0, 1, 2, 3, 4], [1, 2, 3, 4, 5, 6]):
        try:
            R.score_options(FORCED, R.new_card(), dice, out)
        except ValueError as exc:
            assert "dice" in str(exc) or "die" in str(exc)
        else:
            raise AssertionError("accepted %r" % (dice,))


def test_ruleset_names_round_trip():
    for joker in R.JOKERS:
        for bonus in (True, False):
            rules = R.make_ruleset(joker, bonus)
            again = R.ruleset_from_name(rules.name)
            equal((again.joker, again.yahtzee_bonus), (joker, rules.yahtzee_bonus))


def test_252_distinct_rolls():
    rolls = game_state.all_rolls()
    equal(len(rolls), 252)
    equal(len(set(rolls)), 252)


def test_impossible_card_entries_are_named():
    for box, value in (("full_house", 24), ("aces", 6), ("chance", 4), ("yahtzee", 100)):
        try:
            game_state.check_card(FORCED, card_with(**{box: value}))
        except ValueError as exc:
            true(box in str(exc), box, str(exc))
        else:
            raise AssertionError("accepted %s=%r" % (box, value))
    game_state.check_card(FORCED, card_with(aces=5, chance=30, full_house=0, yahtzee=50, yahtzee_bonus=300))
    try:
        game_state.check_card(FORCED, card_with(yahtzee=0, yahtzee_bonus=100))
    except ValueError as exc:
        true("bonus" in str(exc), str(exc))
    else:
        raise AssertionError("bonus without a Yahtzee accepted")


def test_a_negative_yahtzee_bonus_is_impossible():
    # -100 passed every check (a multiple of 100, below the most) and scored -100
    for bonus in (-100, -1200):
        try:
            game_state.check_card(FORCED, card_with(yahtzee=50, yahtzee_bonus=bonus))
        except ValueError as exc:
            true("bonus" in str(exc), str(exc))
        else:
            raise AssertionError("accepted a Yahtzee bonus of %d" % bonus)
