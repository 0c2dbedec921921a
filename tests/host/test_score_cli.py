"""``python -m host_tools score``: output shapes and one-line errors with exit status 2."""

import json
import subprocess
import sys

import pytest

from host_tools import REPO

pytestmark = pytest.mark.slow


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "host_tools", "score"] + list(args), capture_output=True, text=True, cwd=REPO
    )


def test_json_lists_exactly_the_legal_boxes_with_points():
    proc = run("--json", "--card", '{"yahtzee": 50, "fours": 12}', "4", "4", "4", "4", "4")
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stdout)
    assert result["dice"] == [4, 4, 4, 4, 4]
    assert result["boxes"] == {
        "three_kind": 20,
        "four_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "chance": 20,
    }
    assert result["yahtzee_bonus"] == 100
    assert result["joker"] is True
    assert result["totals"] == {"upper": 12, "upper_bonus": 0, "lower": 50, "yahtzee_bonus": 0, "grand": 62}


def test_json_on_an_empty_card():
    result = json.loads(run("--json", "3", "3", "3", "5", "5").stdout)
    assert result["boxes"]["full_house"] == 25
    assert result["boxes"]["three_kind"] == 19
    assert len(result["boxes"]) == 13
    assert result["joker"] is False
    assert result["yahtzee_bonus"] == 0


def test_rule_options_change_the_answer():
    card = '{"yahtzee": 50, "fours": 12}'
    ordered = json.loads(run("--json", "--rules", "ordered", "--card", card, "4", "4", "4", "4", "4").stdout)
    assert sorted(ordered["boxes"]) == ["four_kind", "three_kind"]
    none = json.loads(
        run("--json", "--rules", "none", "--no-yahtzee-bonus", "--card", card, "4", "4", "4", "4", "4").stdout
    )
    assert none["boxes"]["full_house"] == 0
    assert none["yahtzee_bonus"] == 0
    assert none["joker"] is False


def test_card_from_a_file_and_bonus_in_totals(tmp_path):
    path = tmp_path / "card.json"
    path.write_text('{"yahtzee": 50, "aces": 3, "yahtzee_bonus": 100}')
    result = json.loads(run("--json", "--card", str(path), "1", "2", "3", "4", "5").stdout)
    assert result["totals"]["grand"] == 153
    assert "aces" not in result["boxes"]


def test_plain_output_is_a_readable_table():
    proc = run("--card", '{"chance": 17}', "6", "6", "6", "5", "5")
    assert proc.returncode == 0
    assert "3 of a kind      28" in proc.stdout
    assert "Full house       25" in proc.stdout
    assert "filled (17)" in proc.stdout
    assert "= 17" in proc.stdout


@pytest.mark.parametrize(
    "args,words",
    [
        (["1", "2", "3", "4"], "five dice"),
        (["1", "2", "3", "4", "7"], "1-6"),
        (["1", "2", "x", "4", "5"], "1-6"),
        (["--card", '{"fullhouse": 25}', "1", "2", "3", "4", "5"], "unknown box"),
        (["--card", '{"full_house": 24}', "1", "2", "3", "4", "5"], "full_house can never hold 24"),
        (["--card", '{"aces": 3', "1", "2", "3", "4", "5"], "not valid JSON"),
        (["--card", "[1, 2]", "1", "2", "3", "4", "5"], "JSON object"),
        (["--card", '{"yahtzee": 0, "yahtzee_bonus": 100}', "1", "2", "3", "4", "5"], "bonus"),
        (["--rules", "loose", "1", "2", "3", "4", "5"], "--rules"),
        (["--rules", "zoo", "--card", '{"aces": 3}', "1", "2", "3", "4", "5"], "unknown box 'aces'"),
        (["--rules", "zoo", "--card", '{"monkey": 6}', "1", "2", "3", "4", "5"], "monkey can never hold 6"),
        (["--rules", "zoo", "1", "2", "3", "4", "7"], "1-6"),
        (
            ["--card", "nosuchfile.json", "1", "2", "3", "4", "5"],
            "nosuchfile.json: no such card file",
        ),  # was "not valid JSON"
        (
            ["--card", "/dev/zero", "1", "2", "3", "4", "5"],
            "is not a regular file",
        ),  # was a MemoryError, then read up to a bound
        (["--card", "[" * 5000, "1", "2", "3", "4", "5"], "nested too deeply"),  # was a RecursionError
    ],
)
def test_bad_input_exits_2_with_one_line(args, words):
    proc = run(*args)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1
    assert words in lines[0]


def test_zoo_takes_animal_numbers_and_names_the_animals():
    # The README's command: three lions and two elephants on a card with 17 in the upper half.
    card = '{"monkey": 3, "elephant": 3, "giraffe": 4, "rhino": 3, "bear": 4}'
    proc = run("--rules", "zoo", "--card", card, "6", "6", "6", "2", "2")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "dice: Lion Lion Lion Elephant Elephant   rules: zoo"
    assert "Lion             3" in lines
    assert "Three the same   10" in lines
    assert "Full house       15" in lines
    assert "All different    0" in lines
    assert "Zoo Yahtzy       0" in lines
    assert not any("straight" in line.lower() or "chance" in line.lower() for line in lines)
    assert lines[-1] == "card totals: upper 17 + bonus 0 + lower 0 = 17"
    result = json.loads(run("--json", "--rules", "zoo", "1", "2", "3", "4", "6").stdout)
    assert result["animals"] == ["monkey", "elephant", "giraffe", "rhino", "lion"]
    assert result["boxes"]["all_different"] == 20
    assert len(result["boxes"]) == 11
    full = json.loads(run("--json", "--rules", "zoo", "--card", card + "", "3", "3", "3", "3", "3").stdout)
    assert full["boxes"]["zoo_yahtzy"] == 30
    assert full["yahtzee_bonus"] == 0


def test_a_card_file_that_is_not_utf8_is_named(tmp_path):
    card = tmp_path / "card.json"
    card.write_bytes(b'{"chance": 20, "\xe9": 1}')
    proc = run("--card", str(card), "1", "2", "3", "4", "5")
    assert proc.returncode == 2
    assert proc.stderr == "score: card file %s is not UTF-8 text\n" % card  # was a traceback


FULL_CARD = json.dumps(
    {
        "aces": 3,
        "twos": 6,
        "threes": 9,
        "fours": 12,
        "fives": 15,
        "sixes": 18,
        "three_kind": 20,
        "four_kind": 20,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "yahtzee": 50,
        "chance": 22,
    }
)


def test_a_full_card_is_named_not_scored():
    """With every box filled, score announced a joker and 'Yahtzee
    bonus: +100' for five of a kind; it says the card is full, as advise does."""
    proc = run("--card", FULL_CARD, "6", "6", "6", "6", "6")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "score: the card is full: no box is left to score this roll in\n"
    zoo = run(
        "--rules",
        "zoo",
        "--card",
        json.dumps({box: 0 for box in __import__("rules").make_ruleset("zoo").ids}),
        "1",
        "1",
        "1",
        "1",
        "1",
    )
    assert zoo.returncode == 2
    assert "the card is full" in zoo.stderr


def test_the_zoo_card_refuses_no_yahtzee_bonus():
    """The Zoo card has no Yahtzee bonus: --no-yahtzee-bonus there was silently accepted."""
    proc = run("--rules", "zoo", "--no-yahtzee-bonus", "1", "2", "3", "4", "5")
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == "score: --no-yahtzee-bonus: the Zoo card has no Yahtzee bonus\n"


def test_a_box_named_twice_and_a_negative_bonus_are_refused():
    """{"chance": 20, "chance": 25} kept the last silently; a Yahtzee
    bonus of -100 was accepted (rules.check_card) and scored -100."""
    proc = run("--card", '{"chance": 20, "chance": 25}', "1", "2", "3", "4", "5")
    assert proc.returncode == 2
    assert proc.stderr == "score: card names chance twice: give each box once\n"
    proc = run("--card", '{"yahtzee": 50, "yahtzee_bonus": -100}', "1", "2", "3", "4", "5")
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1
    assert "Yahtzee bonus of -100" in proc.stderr


def test_lang_names_the_boxes_as_the_handheld_does_and_json_keeps_the_ids():
    card = ["--card", '{"chance": 17, "yahtzee": 50, "fives": 15}']
    dutch = run(*card, "--lang", "nl", "5", "5", "5", "5", "5")
    assert dutch.returncode == 0, dutch.stderr
    lines = dutch.stdout.splitlines()
    assert "Vijven           filled (15)" in lines
    assert "Kl. straat       30" in lines  # the joker: a further Yahtzee fills a straight
    assert "Kans             filled (17)" in lines
    assert "Yahtzee-bonus: +100" in lines
    english = run(*card, "--json", "5", "5", "5", "5", "5")
    german = run(*card, "--json", "--lang", "de", "5", "5", "5", "5", "5")
    assert json.loads(german.stdout) == json.loads(english.stdout)
    assert "small_straight" in json.loads(german.stdout)["boxes"]
    zoo = run("--rules", "zoo", "--lang", "it", "6", "6", "6", "2", "2")
    assert zoo.stdout.splitlines()[0] == "dice: Leone Leone Leone Elefante Elefante   rules: zoo"
