"""Hint, turn review and computer levels in the headless simulator (real MicroPython).

The device's answers are checked against the advisor run on the host: the hint's hold or
box and expected total against ``python -m host_tools advise`` (``advise.advise``) for the
position read back from the device's save; the review's cost against the host advisor's
values for the choice the test makes. Games of computer levels play to the end with the
table and without it (then with the "No strat. table" note and the simple strategy).
"""

import os

import pytest

import strategy_advisor as A
import rules
from host_tools.simulator import golden as sim_golden
from host_tools import advise
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import forget_setup, play, saved

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()
SOLO = sim_golden.SOLO
SOLO_REVIEW = sim_golden.SOLO_REVIEW
# From "Start game": down = Players, P1; OK on P1: Human -> CPU optimal; back up to Start.
OPTIMAL_VS_CASUAL = "enter down down enter up up enter"
NOTE = "No advice table"


def run(flash, keys, tables=None, seed=4):
    return screen_lines(play(flash, keys, seed=seed, tables=tables).oled_pixels())


@pytest.fixture(scope="module")
def host_adv(device_tables):
    adv = advise.open_advisor(FORCED, device_tables["strategy-forced.bin"])
    yield adv
    adv.table_file.close()


def tenths_text(value):
    t = A.tenths(value)
    return "%d.%d" % (t // 10, t % 10)


def kept_on_screen(line):
    """Faces shown on a hint/review dice line (``.`` = re-roll), positions 1, 4, 7, 10, 13."""
    return [int(line[1 + 3 * i]) if line[1 + 3 * i] != "." else 0 for i in range(5)]


@pytest.mark.parametrize("seed,rolls", [(4, 1), (7, 1), (11, 2), (4, 3), (12, 3)])
def test_hint_shows_the_host_advisors_best_move(tmp_path, device_tables, host_adv, seed, rolls):
    screen = run(tmp_path, SOLO + " space wait:500" * rolls + " m wait:120", device_tables, seed)
    state = saved(tmp_path)["game"]
    assert state["rolls"] == rolls
    card, dice, rolls_left = state["players"][0][2], state["dice"], 3 - rolls
    result = advise.advise(host_adv, card, dice, rolls_left)  # the advise command's answer
    codes, values = [0] * 32, [0] * 32
    host_adv.options(dice, rolls_left, codes, values)
    assert screen[0] == "Hint P1 Roll %d/3" % rolls
    assert screen[5] == "Ends about" + tenths_text(values[0]).rjust(6)
    assert abs(float(screen[5].split()[-1]) - result["expected_total"]) <= 0.05
    best = result["best"]
    if rolls_left and len(best["hold"]) < 5:
        assert screen[2] == "Keep, then roll:"
        shown = kept_on_screen(screen[3])
        assert sorted(f for f in shown if f) == best["hold"]
        assert [f for f in shown if f] == [dice[i] for i in range(5) if codes[0] >> i & 1]
    else:
        if rolls_left:  # best = keep all: score now, in the best box of the last-roll list
            box = advise.advise(host_adv, card, dice, 0)["best"]["box"]
            assert screen[2] == "Score now:"
        else:
            box = best["box"]
            assert screen[2] == "Score:"
        label = sim_golden_label(box)
        assert screen[3].strip() == label


def sim_golden_label(box_id):
    """A box's name as the hint and the review show it: its long one."""
    import lang

    lang.use(lang.ENGLISH)
    return lang.string(lang.item(getattr(lang.T, box_id), 0))


def test_hint_ok_takes_the_advised_hold(tmp_path, device_tables, host_adv):
    run(tmp_path, SOLO + " space wait:500 m wait:120 enter", device_tables, seed=7)
    state = saved(tmp_path)["game"]
    codes, values = [0] * 32, [0] * 32
    host_adv.prepare(state["players"][0][2])
    host_adv.options(state["dice"], 2, codes, values)
    assert codes[0] != 31
    assert state["held"] == codes[0]


@pytest.mark.parametrize("seed", [4, 9])
def test_review_prices_a_deliberately_bad_box(tmp_path, device_tables, host_adv, seed):
    run(tmp_path, SOLO_REVIEW + " space wait:500", device_tables, seed)
    before = saved(tmp_path)
    assert before["coach"] == 2  # turn review, saved with the game
    card, dice = before["game"]["players"][0][2], before["game"]["dice"]
    host_adv.prepare(card)
    codes, values = [0] * 32, [0] * 32
    n = host_adv.options(dice, 0, codes, values)
    worst_box, worst_value = codes[n - 1], values[n - 1]  # the worst box for these dice
    host_adv.options(dice, 2, codes, values)
    best_hold, best = codes[0], values[0]
    points = [0] * 13
    rules.score_options(FORCED, card, dice, points)
    cursor = max(range(13), key=lambda b: (points[b], -b))  # the app's default: most points
    keys = "enter wait:300" + " down" * ((worst_box - cursor) % 13) + " enter enter"  # OK, OK: score
    screen = run(tmp_path, keys, device_tables, seed)  # Continue: the coach mode came back
    assert screen[0] == "P1 turn review"
    assert screen[5] == "You lost" + tenths_text(best - worst_value).rjust(8)
    assert screen[6] == "points"
    assert best - worst_value > 1 << A.FRAC  # a bad choice indeed: more than a point
    if best_hold == 31:
        host_adv.options(dice, 0, codes, values)
        assert screen[2] == "Best: score"
        assert screen[3].strip() == sim_golden_label(rules.BOX_IDS[codes[0]])
    else:
        assert screen[2] == "Best: keep, roll"
        assert [f for f in kept_on_screen(screen[3]) if f] == [dice[i] for i in range(5) if best_hold >> i & 1]
    after = saved(tmp_path)["game"]["players"][0][2]
    assert after[worst_box] == points[worst_box]


@pytest.mark.parametrize("with_table", [True, False])
def test_cpu_optimal_against_cpu_casual_plays_to_the_end(tmp_path, device_tables, with_table):
    tables = device_tables if with_table else None
    early = run(tmp_path, OPTIMAL_VS_CASUAL + " wait:300", tables)
    assert early[0] == "Who starts?"
    assert (early[7] == NOTE) is not with_table  # the fallback says so once, in round 1
    screen = run(tmp_path, "enter wait:200000", tables)  # Continue, then let them play
    assert screen[0] == "Game over"
    assert [line[3:9] for line in screen[1:3]] == ["P1 CPU", "P2 CPU"] or [line[3:9] for line in screen[1:3]] == [
        "P2 CPU",
        "P1 CPU",
    ]
    state = saved(tmp_path)["game"]  # kept until OK leaves the end screen (high scores)
    assert state["round"] == 13
    assert [p[1] for p in state["players"]] == ["optimal", "casual"]
    assert all(b >= 0 for p in state["players"] for b in p[2][:13])


def test_without_a_table_short_menu_shows_the_card(tmp_path):
    screen = run(tmp_path, SOLO + " space wait:500 m wait:120")
    assert screen[0].startswith("P1 card")
    turn = run(tmp_path, "enter wait:300")  # Continue: round 1 shows the note
    assert turn[7] == NOTE


def test_menu_levels_and_coach_survive_a_save_and_resume(tmp_path, device_tables):
    # From Start: down to P2 (Players, P1, P2): casual -> Human -> optimal -> win -> good;
    # then down to Coach (Card, Joker, Yahtzee bonus, How to play, Coach): hints -> review.
    setup = "enter down down down enter enter enter enter down down down down down enter"
    menu = run(tmp_path, setup, device_tables)
    assert "P2 CPU good" in menu
    assert "Coach     review" in menu
    forget_setup(tmp_path)  # the menu's defaults again: the same keys set it up
    # Down to Start game: Sound, Brightness, Language, Records, Start game.
    run(tmp_path, setup + " down down down down down enter wait:4500", device_tables)
    first = saved(tmp_path)
    assert [p[1] for p in first["game"]["players"]] == ["human", "good"]
    assert first["coach"] == 2
    p2_filled = sum(1 for b in first["game"]["players"][1][2][:13] if b >= 0)
    # Resume; if P1 is on turn, roll once and score (then the review shows: OK goes on).
    keys = "enter wait:300"
    if first["game"]["current"] == 0:
        keys += " space wait:500 enter enter wait:300 enter"  # score (two OKs), leave the review
    run(tmp_path, keys + " wait:15000", device_tables)
    after = saved(tmp_path)
    assert [p[1] for p in after["game"]["players"]] == ["human", "good"]
    assert after["coach"] == 2
    assert sum(1 for b in after["game"]["players"][1][2][:13] if b >= 0) == p2_filled + 1


def test_review_adds_the_cost_of_a_hold_and_of_the_box(tmp_path, device_tables, host_adv):
    """Roll, re-roll all five (a hold of nothing), score the default box with a roll left:
    the review shows the sum of both decisions' costs, priced on the host."""
    seed = 5
    first = SOLO_REVIEW + " space wait:500"
    second = first + " space wait:500"
    run(tmp_path / "a", first, device_tables, seed)
    run(tmp_path / "b", second, device_tables, seed)  # same seed, same virtual time: same dice
    d1 = saved(tmp_path / "a")["game"]["dice"]
    state = saved(tmp_path / "b")["game"]
    card, d2 = state["players"][0][2], state["dice"]
    assert state["rolls"] == 2
    assert state["held"] == 0
    screen = run(tmp_path / "c", second + " enter enter", device_tables, seed)  # OK, OK: score
    host_adv.prepare(card)
    codes, values = [0] * 32, [0] * 32
    host_adv.options(d1, 2, codes, values)
    hold_cost = values[0] - host_adv.hold_value(d1, 2, 0)
    host_adv.options(d2, 1, codes, values)
    best = values[0]
    points = [0] * 13
    rules.score_options(FORCED, card, d2, points)
    box = max(range(13), key=lambda b: (points[b], -b))
    n = host_adv.options(d2, 0, codes, values)
    box_cost = best - values[list(codes[:n]).index(box)]
    assert hold_cost > 0  # re-rolling everything was not the best hold
    assert screen[0] == "P1 turn review"
    assert screen[5] == "You lost" + tenths_text(hold_cost + box_cost).rjust(8)


def test_sim_command_links_the_table_and_no_table_removes_it(tmp_path, capsys):
    from host_tools import sim

    flash = str(tmp_path / "flash")
    keys = [
        "--headless",
        "--seed",
        "4",
        "--flash-dir",
        flash,
        "--keys",
        OPTIMAL_VS_CASUAL + " wait:300",
        "--print-screen",
    ]
    assert sim.main(keys) == 0
    with_table = capsys.readouterr().out
    assert os.path.exists(os.path.join(flash, "strategy-forced.bin"))  # built if missing, linked
    assert "Who starts?" in with_table
    assert NOTE not in with_table
    resume = ["--headless", "--seed", "4", "--flash-dir", flash, "--keys", "enter wait:300", "--print-screen"]
    assert sim.main(resume + ["--no-table"]) == 0  # Continue the saved game without the table
    without = capsys.readouterr().out
    assert not os.path.exists(os.path.join(flash, "strategy-forced.bin"))
    assert NOTE in without


def test_coach_off_short_menu_shows_the_card_even_with_a_table(tmp_path, device_tables):
    # Solo; Players -> down x6 = Coach (P1, Card, Joker, Yahtzee bonus, How to play,
    # Coach): hints -> review -> off; down x5 = Start game (Sound, Brightness, Language,
    # Records, Start).
    keys = "enter down enter enter enter" + " down" * 6 + " enter enter" + " down" * 5 + " enter wait:300"
    screen = run(tmp_path, keys + " space wait:500 m wait:120", device_tables)
    assert screen[0].startswith("P1 card")
    assert saved(tmp_path)["coach"] == 0
