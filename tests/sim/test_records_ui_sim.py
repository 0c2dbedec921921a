"""Records on the device, in the headless simulator (the real firmware under MicroPython):
high-score initials entered with the buttons after the end screen (its OK counts the game:
its last score could be taken back until then), the high-score table after them, the
records pages (high scores, statistics, dice fairness) reached from the menu, the
end-of-game order surviving a power cut on the end screen, and tied scores keeping both
entries.

Figures on the screens are checked against the records files the firmware wrote, read
back in CPython with the same storage/records modules.
"""

import pytest

import save_records
import save_records_view
import save_store
from host_tools.simulator import golden as sim_golden
from host_tools.simulator.screen import screen_lines
from helpers.sim_helpers import forget_setup, play, play_seen, saved

pytestmark = pytest.mark.slow

SEED = 9
GAME = sim_golden.SOLO_GAME  # splash, players 2 -> 1, start; one roll per turn, the best box
# OK leaves the end screen; Z (DOWN from A), C (UP twice), A; OK on the high-score table
INITIALS_ZCA = " enter down enter up up enter enter enter"


def run(flash, keys):
    return screen_lines(play(flash, keys, seed=SEED).oled_pixels())


def run_end(flash, keys):
    """The end screen's lines after ``keys``, then its OK: the game counted, the
    initials asked."""
    return play_seen(flash, keys, "enter", seed=SEED)[1]


def end_total(lines):
    assert lines[0] == "Game over", lines
    return int(lines[1].split()[-1])


def test_initials_then_the_records_pages(tmp_path):
    total = end_total(run_end(tmp_path / "end", GAME))
    stats = saved(tmp_path / "end", "stats")
    assert stats["all"][save_records.GAMES] == 1
    assert stats["names"]["P1"][save_records.POINTS] == total
    assert saved(tmp_path / "end", "scores") is None  # initials come after the end screen

    entry = run(tmp_path / "entry", GAME + " enter down enter up up")
    assert entry[0] == "New high score!"
    assert entry[1].split() == ["P1", str(total)]
    assert entry[4].split() == ["Z", "C", "A"]

    flash = tmp_path / "full"
    after = run(flash, GAME + INITIALS_ZCA)
    assert after[0].startswith("Setup")
    assert saved(flash, "scores") == [[total, "ZCA", saved(flash, "stats")["last"], 0]]
    assert saved(flash, "game") is None  # step 4: the finished game is forgotten

    pages = "enter up enter"  # next boot: splash, "Records" (the last line: UP from "Start game"), OK
    assert run(flash, pages)[:3] == ["High scores", " 1  ZCA" + str(total).rjust(9), ""]
    assert run(flash, pages)[7] == "OK: next page"
    summary = save_records_view.summary(saved(flash, "stats")["all"])
    shown = run(flash, pages + " enter")
    assert shown[0] == "All players    v"  # v: DOWN shows the next name
    assert shown[1].split() == ["Games", "1"]
    assert shown[2].split() == ["Scores", "1"]
    assert shown[3].split() == ["Average", "%d.%d" % (summary[1] // 10, summary[1] % 10)]
    assert shown[4].split() == ["Best", str(total)]
    assert shown[6].split() == ["Upper", "bonus", "%d%%" % summary[4]]
    assert shown[7] == "UP/DOWN: player"  # the keys
    person = run(flash, pages + " enter down")
    assert person[0] == "P1             v"
    assert person[3].split() == ["Best", str(total)]

    faces = saved(flash, "rolls")["faces"]
    assert sum(faces) == 13 * 5
    _stat, verdict = save_records_view.chi_square(faces)
    fair = run(flash, pages + " enter enter")
    assert fair[0] == "Fair dice?"  # the verdict says what the chi-square figure means
    for face in range(6):
        assert fair[face + 1].startswith(str(face + 1))
        assert fair[face + 1].endswith(" %d" % faces[face])
    assert fair[7] == ("Too few rolls", "Looks fair", "Maybe unfair", "Unfair dice!")[verdict]
    assert run(flash, pages + " enter enter enter")[0].startswith("Setup")  # OK on the last page


def test_a_power_cut_on_the_end_screen_counts_the_game_once(tmp_path):
    total = end_total(run_end(tmp_path, GAME))
    first = saved(tmp_path, "stats")
    assert saved(tmp_path, "game")["game"]["phase"] == 2  # game.OVER: step 1 done, step 4 not
    again = run(tmp_path, "")  # reboot: straight back to the end screen, no "Continue"
    assert end_total(again) == total
    assert saved(tmp_path, "stats") == first  # step 2 ran again and counted nothing
    assert run(tmp_path, INITIALS_ZCA)[0].startswith("Setup")
    assert saved(tmp_path, "scores") == [[total, "ZCA", first["last"], 0]]
    assert saved(tmp_path, "game") is None
    assert saved(tmp_path, "stats") == first
    assert run(tmp_path, "wait:1500")[0].startswith("Setup")  # nothing left to resume


def test_equal_scores_keep_both_entries(tmp_path):
    total = end_total(run(tmp_path, GAME))
    run(tmp_path, INITIALS_ZCA)
    forget_setup(tmp_path)  # the menu as the first game found it
    assert end_total(run(tmp_path, GAME)) == total  # same seed, same keys: same game
    run(tmp_path, " enter up enter enter enter enter")  # B, A, A; the table
    scores = saved(tmp_path, "scores")
    assert [(s[0], s[1]) for s in scores] == [(total, "ZCA"), (total, "BAA")]
    assert scores[0][2] != scores[1][2]  # two games
    assert saved(tmp_path, "stats")["all"][save_records.GAMES] == 2


def test_a_cut_after_the_initials_but_before_the_clear_asks_nothing_again(tmp_path):
    total = end_total(run_end(tmp_path, GAME))
    data = tmp_path / "data"
    game_files = {p.name: p.read_bytes() for p in data.iterdir() if p.name.startswith("game.")}
    run(tmp_path, INITIALS_ZCA)
    scores = saved(tmp_path, "scores")
    for name, content in game_files.items():  # the flash as a cut before step 4 leaves it
        (data / name).write_bytes(content)
    assert end_total(run(tmp_path, "")) == total
    assert run(tmp_path, "enter")[0].startswith("Setup")  # OK: no initials asked twice
    assert saved(tmp_path, "scores") == scores
    assert saved(tmp_path, "game") is None
    assert saved(tmp_path, "stats")["all"][save_records.GAMES] == 1


def test_a_damaged_records_file_costs_only_itself(tmp_path):
    run(tmp_path, GAME + INITIALS_ZCA)
    data = tmp_path / "data"
    scores, rolls = saved(tmp_path, "scores"), saved(tmp_path, "rolls")
    (data / "stats.a").write_bytes(b"YZ\x01\x00garbage")
    lines = run(tmp_path, "")
    assert lines[:5] == ["Records damaged", "stats:", "truncated,", "kept as .bad,", "started afresh."]
    assert (data / "stats.a.bad").read_bytes() == b"YZ\x01\x00garbage"
    assert saved(tmp_path, "scores") == scores
    assert saved(tmp_path, "rolls") == rolls


def test_zoo_records_are_their_own_table(tmp_path):
    # A kids' solo game (11 rounds), initials Z-C-A: it enters the Zoo table only.
    zoo_game = sim_golden.ZOO_SOLO + " space enter enter" * 11
    total = end_total(run(tmp_path / "end", zoo_game))
    assert total <= 130
    flash = tmp_path / "zoo"
    run(flash, zoo_game + INITIALS_ZCA)
    assert saved(flash, "zoo_scores") == [[total, "ZCA", saved(flash, "zoo_stats")["last"], 0]]
    assert saved(flash, "scores") is None
    assert saved(flash, "stats") is None
    assert sum(saved(flash, "rolls")["faces"]) == 11 * 5
    kids = run(flash, "enter up enter")  # next boot, the Zoo card kept (the set-up): Records
    assert kids[:2] == ["Zoo top scores", " 1  ZCA" + str(total).rjust(9)]
    # Card: Zoo -> standard (one player: up 7 from Start), then down 8 to Records (the
    # joker and Yahtzee bonus lines are back)
    standard = run(flash, "enter" + " up" * 7 + " enter" + " down" * 8 + " enter")
    assert standard[:3] == ["High scores", "", "none yet"]


def test_scores_with_a_valid_frame_but_wrong_contents_use_the_older_copy_once(tmp_path):
    run(tmp_path, GAME + INITIALS_ZCA)
    data = tmp_path / "data"
    scores = saved(tmp_path, "scores")
    store = save_store.Store(str(data / "scores"))
    store.load()
    store.save({"weird": [1, 2, 3]})  # correct CRC, newer sequence number, wrong contents
    lines = run(tmp_path, "")
    assert lines[:5] == ["Records damaged", "scores:", "bad contents,", "kept as .bad,", "older copy used."]
    assert sorted(p.name for p in data.iterdir() if p.name.startswith("scores.")) == ["scores.a", "scores.b.bad"]
    assert saved(tmp_path, "scores") == scores
    assert run(tmp_path, "wait:1600")[0].startswith("Setup")  # said once: the next boot is quiet
    forget_setup(tmp_path)  # GAME starts from the menu's defaults
    total = end_total(run(tmp_path, GAME))  # another game with a high score keeps the first
    run(tmp_path, INITIALS_ZCA)
    assert [s[0] for s in saved(tmp_path, "scores")] == sorted([total, scores[0][0]], reverse=True)


def test_the_place_shown_for_initials_is_where_each_player_ends(tmp_path):
    # A two-player game that ended just before a power cut (its save in phase
    # OVER), P2 ahead of P1. Places are computed for both at once: the better seat is
    # asked first and each sees the place it really ends in.
    import game
    import rules
    import save_store

    def card(chance):
        return [0] * 12 + [chance, 0]

    state = {
        "v": 1,
        "rules": rules.make_ruleset().name,
        "phase": game.OVER,
        "round": 13,
        "current": 0,
        "first": 0,
        "contenders": [0],
        "dice": [0] * 5,
        "held": 0,
        "rolls": 0,
        "players": [["P1", "human", card(20)], ["P2", "human", card(30)]],
    }

    def flash(name):
        folder = tmp_path / name
        (folder / "data").mkdir(parents=True)
        save_store.Store(str(folder / "data" / "game")).save(
            {"id": 4242, "seed": [5, 0], "counts": [0] * 6, "game": state, "coach": 1}
        )
        save_store.Store(str(folder / "data" / "scores")).save([[25, "OLD", 1, 0]])
        return folder

    first = run(flash("first"), "enter")  # the end screen is up again; OK: the high scores
    assert first[0] == "New high score!"
    assert first[1].split() == ["P2", "30"]
    assert first[2].split() == ["Place", "1"]
    second = run(flash("second"), "enter enter enter enter")  # AAA for P2, then P1
    assert second[1].split() == ["P1", "20"]
    assert second[2].split() == ["Place", "3"]
    done = flash("done")
    run(done, "enter" + " enter" * 6)
    assert saved(done, "scores") == [[30, "AAA", 4242, 1], [25, "OLD", 1, 0], [20, "AAA", 4242, 0]]
