"""``python -m host_tools advise``: JSON shape, agreement with the advisor, bad input."""

import json
import os

import pytest

import rules
from host_tools.solver import cache as solver_cache
from host_tools import advise, texts

pytestmark = pytest.mark.slow

FORCED = rules.make_ruleset()


@pytest.fixture(scope="module")
def table():
    return solver_cache.table(FORCED, "exact")


def run(capsys, *args):
    status = advise.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_start_of_game_expected_score(capsys, table):
    status, out, _err = run(capsys, "--table", table, "--json")
    assert status == 0
    result = json.loads(out)
    assert abs(result["expected_total"] - 254.5877287) < 0.01  # table values are 2**-7 points


def test_holds_best_first_with_expected_totals(capsys, table):
    status, out, _err = run(capsys, "--table", table, "--json", "--dice", "6", "1", "4", "2", "3", "--rolls-left", "2")
    assert status == 0
    result = json.loads(out)
    assert result["best"] == result["options"][0]
    assert result["expected_total"] == result["best"]["expected_total"]
    assert result["best"]["hold"] == [1, 2, 3, 4]
    totals = [o["expected_total"] for o in result["options"]]
    assert totals == sorted(totals, reverse=True)
    assert len(result["options"]) == 32  # five distinct dice: every subset is a distinct hold
    assert all(o["hold"] == sorted(o["hold"]) for o in result["options"])


def test_last_roll_lists_boxes_and_the_card_counts(capsys, table):
    card = json.dumps({"yahtzee": 50, "sixes": 24, "yahtzee_bonus": 100})
    status, out, _err = run(
        capsys, "--table", table, "--json", "--card", card, "--dice", "5", "5", "5", "5", "5", "--rolls-left", "0"
    )
    assert status == 0
    result = json.loads(out)
    assert [o["box"] for o in result["options"]] == ["fives"]  # forced joker
    assert result["best"]["expected_total"] > 50 + 24 + 100 + 25 + 100  # fives + bonus on top


def test_text_output(capsys, table):
    status, out, _err = run(capsys, "--table", table, "--dice", "2", "3", "4", "5", "6", "--rolls-left", "0")
    assert status == 0
    assert out.splitlines()[1].split()[:2] == ["Lg", "straight"]  # as the card view names it


@pytest.mark.parametrize(
    "args",
    [
        ["--dice", "1", "2", "3", "4", "--rolls-left", "1"],
        ["--dice", "1", "2", "3", "4", "9", "--rolls-left", "1"],
        ["--dice", "1", "2", "3", "4", "5"],
        ["--dice", "1", "2", "3", "4", "5", "--rolls-left", "3"],
        ["--card", "{\"chance\": 3}"],
        ["--card", "{not json"],
        ["--rules", "house"],
        ["--table", "/nonexistent/table.bin"],
    ],
)
def test_bad_input_exits_2_with_one_line(capsys, args):
    status, out, err = run(capsys, *args)
    assert status == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("advise: ")


def test_full_card_is_bad_input(capsys):
    card = {box: 0 for box in rules.BOX_IDS}
    status, _out, err = run(capsys, "--card", json.dumps(card))
    assert status == 2
    assert "full" in err


def test_table_for_another_ruleset_is_refused(capsys, table):
    status, _out, err = run(capsys, "--rules", "free", "--table", table)
    assert status == 2
    assert "forced" in err
    assert err.count("\n") == 1


def test_finds_the_table_in_the_build_folder(tmp_path, table):
    with open(table, "rb") as src:
        (tmp_path / "strategy-forced.bin").write_bytes(src.read())
    path = advise.ensure_table(FORCED, folder=str(tmp_path), quiet=True)
    assert os.path.basename(path) == "strategy-forced.bin"


def test_zoo_advice_names_the_animals(capsys):
    zoo_table = solver_cache.table(rules.make_ruleset("zoo"), "exact")
    status, out, _err = run(capsys, "--rules", "zoo", "--table", zoo_table, "--json")
    assert status == 0
    assert abs(json.loads(out)["expected_total"] - 85.0403) < 0.01
    status, out, _err = run(
        capsys, "--rules", "zoo", "--table", zoo_table, "--dice", "6", "6", "2", "3", "1", "--rolls-left", "2"
    )
    assert status == 0
    lines = out.splitlines()
    assert lines[2].split()[:2] == ["Lion", "Lion"]  # keep the two lions
    assert lines[-2].startswith("score now instead (best box ")
    zoo_names = [texts.box(rules.make_ruleset("zoo"), b) for b in range(11)]
    assert lines[-2][len("score now instead (best box ") : -2] in zoo_names  # a Zoo box
    status, out, _err = run(
        capsys,
        "--rules",
        "zoo",
        "--table",
        zoo_table,
        "--json",
        "--card",
        '{"lion": 3}',
        "--dice",
        "6",
        "6",
        "6",
        "2",
        "2",
        "--rolls-left",
        "0",
    )
    result = json.loads(out)
    assert status == 0
    assert result["best"]["box"] == "full_house"
    assert {o["box"] for o in result["options"]} == set(rules.make_ruleset("zoo").ids) - {"lion"}
    status, _out, err = run(capsys, "--rules", "zoo", "--table", table_for_forced(), "--json")
    assert status == 2
    assert "zoo" in err  # a standard table is refused, one line


def table_for_forced():
    return solver_cache.table(FORCED, "exact")


def test_keeping_all_five_with_rolls_left_is_not_labelled_score_now(capsys, table):
    dice = ["--dice", "1", "1", "1", "2", "3"]
    status, out, _err = run(capsys, "--table", table, *dice, "--rolls-left", "2")
    assert status == 0
    keep_all = [line for line in out.splitlines() if line.split()[:5] == ["1", "1", "1", "2", "3"]]
    assert len(keep_all) == 1
    assert "score now" not in keep_all[0]  # it was "(score now)"
    assert "one roll still left" in keep_all[0]
    _status, last, _err = run(capsys, "--table", table, "--json", *dice, "--rolls-left", "0")
    best_box = json.loads(last)["best"]
    lines = out.splitlines()
    name = texts.box_by_id(best_box["box"])
    at = lines.index("score now instead (best box %s):" % name)
    assert lines[at + 1].split() == name.split() + ["%.4f" % best_box["expected_total"]]
    assert float(keep_all[0].split()[5]) != best_box["expected_total"]  # 249.3720 vs 245.3203
    _status, as_json, _err = run(capsys, "--table", table, "--json", *dice, "--rolls-left", "2")
    assert json.loads(as_json)["score_now"] == best_box
