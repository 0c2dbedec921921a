"""``python -m host_tools challenge``: the perfect game on a challenge code's dice.

- The game it prints replays move by move on the game engine with the same code: the
  same dice for the same holds, the same points, the same total.
- It is optimal play: the solver's numpy twin of the advisor (host_tools/solver/
  fast_play.py, written apart from firmware/strategy_advisor.py) playing the same codes'
  dice with the same rule (keeping all five with rolls left scores now) ends on the same
  total for every code.
- The text form says the same as the JSON form, and the Zoo card plays its own.
"""

import json

import numpy as np
import pytest

import game as G
import game_challenge as C
import rules
from host_tools import challenge
from host_tools.benches import win_meter as win_meter_bench
from host_tools.solver import fast_play
from host_tools.solver.files import ensure_table, open_advisor
from host_tools.solver.perfect import perfect_game

FORCED = rules.make_ruleset()
CODES = ("KQZX", "AAAA", "PICO", "ZZZZ", "DICE", "MOON", "YAHT", "BEST", "QUIZ", "FROG", "LUCK", "ROLL")


def _run(capsys, *args):
    assert challenge.main(list(args)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("code,ruleset", [("KQZX", "forced"), ("PICO", "zoo")])
def test_the_printed_game_replays_on_the_engine(capsys, code, ruleset):
    got = json.loads(_run(capsys, code, "--json", "--rules", ruleset))
    assert got["code"] == code
    game = G.Game(rules.make_ruleset(ruleset), [("P1", "human")], None, code)
    assert len(got["rounds"]) == game.rules.n_boxes
    for played in got["rounds"]:
        for roll in played["rolls"]:
            game.roll()
            assert game.dice == roll["dice"]
            if "hold" in roll:
                assert roll["keep"] == [d for i, d in enumerate(game.dice) if roll["hold"] >> i & 1]
                if roll["hold"] == G.ALL_HELD:
                    break  # keeping all five with a roll left: scored now
                game.set_held(roll["hold"])
        points, _bonus = game.score(game.rules.ids.index(played["box"]))
        assert points == played["points"]
    assert game.phase == G.OVER
    assert game.total(0) == got["total"]


def test_the_text_says_what_the_json_says(capsys):
    data = json.loads(_run(capsys, "kqzx", "--json"))  # lower case is the same code
    text = _run(capsys, "KQZX").splitlines()
    assert text[0] == "challenge KQZX (forced): the perfect game"
    assert text[-1] == "total %d" % data["total"]
    assert len(text) == 2 + 13
    for line, played in zip(text[1:-1], data["rounds"]):
        first = " ".join(str(d) for d in played["rolls"][0]["dice"])
        assert first in line
        assert line.endswith(" %d" % played["points"])


def _twin_totals(codes):
    """Totals of optimal play on each code's dice by the numpy twin, all codes at once."""
    fa, _fixed, _var = win_meter_bench.load(FORCED)
    numbers = [C.code_number(c) for c in codes]
    cards = fast_play.Cards(len(codes))
    for turn in range(13):
        k3, k2, succ = fa.prepare(cards.mask, cards.up, cards.yz)
        dice = [[C.challenge_die(n, turn, 0, i) for i in range(5)] for n in numbers]
        stopped = [False] * len(codes)
        for roll, k in ((1, k2), (2, k3)):
            holds = fa.best_hold(k, np.array([fast_play.dice_code(d) for d in dice]))
            for g, n in enumerate(numbers):
                hold = G.ALL_HELD if stopped[g] else int(holds[g])
                stopped[g] = hold == G.ALL_HELD
                dice[g] = [d if hold >> i & 1 else C.challenge_die(n, turn, roll, i) for i, d in enumerate(dice[g])]
        codes_now = np.array([fast_play.dice_code(d) for d in dice])
        scores, bonus, values = fa.box_options(cards.mask, cards.yz, codes_now, succ)
        cards.score(FORCED, fa.yz_box, np.argmax(values, axis=1), scores, bonus)
    return [int(t) for t in cards.total]


def test_it_is_optimal_play_as_the_solvers_twin_plays_it():
    adv = open_advisor(FORCED, ensure_table(FORCED, quiet=True))
    try:
        device = [perfect_game(adv, code)[0] for code in CODES]
    finally:
        adv.table_file.close()
    assert device == _twin_totals(CODES)
    assert len(set(device)) > 3  # the codes play different games
