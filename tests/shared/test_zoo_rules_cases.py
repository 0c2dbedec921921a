"""The Zoo (kids') ruleset of docs/rules_zoo.md, against firmware/rules.py.

Every scoring line, the 18 -> 10 upper bonus boundary, and the new box kinds checked over
all 252 rolls against a plain re-reading of docs/rules_zoo.md's table (written here from scratch,
not with rules.py's scorer). Runs under pytest and inside the real MicroPython.
"""

import game_state
import rules as R
from check import equal, true

ZOO = R.make_ruleset("zoo")
ID = ZOO.ids.index


def options(dice, card=None):
    out = [0] * R.N_BOXES  # a buffer sized for the largest card, as the firmware makes them
    R.score_options(ZOO, card or R.new_card(ZOO), dice, out)
    return out


def points(dice, box):
    return options(dice)[ID(box)]


def test_the_zoo_card_has_eleven_boxes_and_six_animals():
    equal(
        ZOO.ids,
        (
            "monkey",
            "elephant",
            "giraffe",
            "rhino",
            "bear",
            "lion",
            "three_same",
            "four_same",
            "full_house",
            "all_different",
            "zoo_yahtzy",
        ),
    )
    equal(ZOO.n_boxes, 11)
    equal(ZOO.n_upper, 6)
    equal(ZOO.bonus_at, 11)
    equal(len(R.new_card(ZOO)), 12)
    equal([ZOO.face_name(f) for f in range(1, 7)], ["monkey", "elephant", "giraffe", "rhino", "bear", "lion"])
    equal(ZOO.name, "zoo")
    equal(R.ruleset_from_name("zoo").name, "zoo")
    equal(ZOO.upper_threshold, 18)
    equal(ZOO.upper_bonus, 10)
    equal(ZOO.yahtzee_bonus, 0)
    equal(R.make_ruleset("zoo", yahtzee_bonus=True).yahtzee_bonus, 0)  # never a Yahtzee bonus
    equal(R.make_ruleset().face_name(4), "4")


def test_upper_boxes_score_one_point_per_animal():
    equal(points([3, 3, 3, 1, 6], "giraffe"), 3)  # three cats: 3 points, not 9
    equal(points([6, 6, 6, 6, 6], "lion"), 5)
    equal(points([1, 2, 2, 4, 5], "elephant"), 2)
    equal(points([1, 2, 2, 4, 5], "lion"), 0)
    equal(points([1, 1, 1, 1, 2], "monkey"), 4)


def test_three_and_four_the_same_pay_fixed_points():
    equal(points([5, 5, 5, 1, 2], "three_same"), 10)
    equal(points([5, 5, 5, 5, 2], "three_same"), 10)
    equal(points([5, 5, 1, 1, 2], "three_same"), 0)
    equal(points([4, 4, 4, 4, 1], "four_same"), 15)
    equal(points([4, 4, 4, 1, 1], "four_same"), 0)
    equal(points([6, 6, 6, 6, 6], "four_same"), 15)


def test_full_house_is_three_plus_two_for_15():
    equal(points([2, 2, 2, 6, 6], "full_house"), 15)
    equal(points([2, 2, 2, 6, 5], "full_house"), 0)
    equal(points([2, 2, 2, 2, 2], "full_house"), 0)  # five the same is not 3 + 2


def test_all_different_needs_five_different_animals_for_20():
    equal(points([1, 2, 3, 4, 5], "all_different"), 20)
    equal(points([6, 4, 2, 1, 3], "all_different"), 20)  # no order needed: no straights
    equal(points([1, 2, 3, 4, 4], "all_different"), 0)


def test_zoo_yahtzy_is_five_the_same_for_30():
    equal(points([3, 3, 3, 3, 3], "zoo_yahtzy"), 30)
    equal(points([3, 3, 3, 3, 1], "zoo_yahtzy"), 0)


def test_no_joker_and_no_bonus_for_a_second_zoo_yahtzy():
    card = R.new_card(ZOO)
    card[ID("zoo_yahtzy")] = 30
    out = options([2, 2, 2, 2, 2], card)
    assert R.score_options(ZOO, card, [2, 2, 2, 2, 2], [0] * R.N_BOXES) is False
    equal(out[ID("zoo_yahtzy")], -1)  # filled
    equal(out[ID("monkey")], 0)
    equal(out[ID("elephant")], 5)
    equal(out[ID("full_house")], 0)
    equal(R.yahtzee_bonus_for(ZOO, card, [2, 2, 2, 2, 2]), 0)


def test_boxes_past_the_zoo_card_are_never_offered():
    out = options([1, 2, 3, 4, 5])
    equal(out[11], -1)
    equal(out[12], -1)


def test_upper_bonus_10_at_exactly_18():
    card = R.new_card(ZOO)
    for box, got in zip(("monkey", "elephant", "giraffe", "rhino", "bear"), (3, 3, 3, 3, 5)):
        card[ID(box)] = got  # 17
    equal(R.totals(ZOO, card), (17, 0, 0, 0, 17))
    card[ID("lion")] = 1  # 18: "18 of meer" earns the bonus
    equal(R.totals(ZOO, card), (18, 10, 0, 0, 28))
    card[ID("lion")] = 0
    card[ID("bear")] = 4  # back to 16
    equal(R.totals(ZOO, card)[1], 0)


def test_totals_and_best_possible_card():
    card = [5, 5, 5, 5, 5, 5, 10, 15, 15, 20, 30, 0]
    game_state.check_card(ZOO, card)
    equal(R.totals(ZOO, card), (30, 10, 90, 0, 130))


def test_impossible_zoo_entries_are_named():
    for box, bad in (("monkey", 6), ("three_same", 9), ("all_different", 15), ("zoo_yahtzy", 50)):
        card = R.new_card(ZOO)
        card[ID(box)] = bad
        try:
            game_state.check_card(ZOO, card)
        except ValueError as exc:
            true(box in str(exc), box, str(exc))
        else:
            raise AssertionError("%s = %d accepted" % (box, bad))
    try:
        game_state.check_card(ZOO, R.new_card())  # a standard card is not a Zoo card
    except ValueError as exc:
        true("14" in str(exc), str(exc))
        true("12" in str(exc), str(exc))
    else:
        raise AssertionError("a 14-entry card accepted")
    card = R.new_card(ZOO)
    card[ZOO.bonus_at] = 100
    try:
        game_state.check_card(ZOO, card)
    except ValueError:
        pass
    else:
        raise AssertionError("a Yahtzee bonus accepted on the Zoo card")


def _plain_reading(roll):
    """docs/rules_zoo.md's Zoo table read again, plainly: box id -> points for an open card."""
    counts = [roll.count(face) for face in range(1, 7)]
    ordered = sorted(counts)
    got = {}
    for face, animal in enumerate(("monkey", "elephant", "giraffe", "rhino", "bear", "lion")):
        got[animal] = counts[face]
    got["three_same"] = 10 if ordered[-1] >= 3 else 0
    got["four_same"] = 15 if ordered[-1] >= 4 else 0
    got["full_house"] = 15 if ordered[-2:] == [2, 3] else 0
    got["all_different"] = 20 if ordered[-1] == 1 else 0
    got["zoo_yahtzy"] = 30 if ordered[-1] == 5 else 0
    return got


def test_every_roll_scores_as_the_plain_reading_of_the_table():
    for roll in game_state.all_rolls():
        out = options(list(roll))
        expected = _plain_reading(list(roll))
        for box in range(ZOO.n_boxes):
            if out[box] != expected[ZOO.ids[box]]:
                raise AssertionError(
                    "%s in %s: %d, table says %d" % (roll, ZOO.ids[box], out[box], expected[ZOO.ids[box]])
                )


def test_standard_rulesets_are_unchanged_by_the_zoo_card():
    forced = R.make_ruleset()
    equal(forced.n_boxes, 13)
    equal(forced.n_upper, 6)
    equal(forced.yahtzee_box, R.YAHTZEE)
    equal(forced.ids, R.BOX_IDS)
    equal(forced.bonus_at, R.BONUS)
    equal(R.CHOICES, ("forced", "ordered", "free", "none", "zoo"))
