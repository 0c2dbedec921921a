"""The web port in headless Chromium: the built site served on 127.0.0.1 by a plain static
server (no COOP/COEP headers: the site's service worker provides them), played by real
pointer presses (host_tools/browser/browse.py). Skipped, with one line saying how to get
it, when no Chromium is installed (.ci/run installs Debian's).
"""

import json
import subprocess
import sys
import time

import pytest

from host_tools.browser import browse, site
from host_tools.simulator.golden import FOUR_CPUS, SOLO, ZOO_SOLO
from host_tools.simulator.screen import dice_state, screen_lines

if browse.chromium_path() is None:
    pytest.skip(browse.HOW_TO_GET, allow_module_level=True)

HUMAN_TURN = browse.HUMAN_TURN
slow = browse.slow


@pytest.fixture(scope="module")
def url(tmp_path_factory, device_tables):
    import rules
    from host_tools.solver import cache as solver_cache

    site.install_port()
    out = str(tmp_path_factory.mktemp("site"))
    tables = dict(device_tables, **{"strategy-zoo.bin": solver_cache.table(rules.make_ruleset("zoo"), "exact")})
    site.build_site(out, tables=tables)
    with browse.serving(out) as address:
        yield address


def test_a_whole_game_by_pointer_presses_then_reload_offers_continue(url):
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        assert page.page.evaluate("crossOriginIsolated")  # from the service worker alone
        page.keys(slow(SOLO) + HUMAN_TURN * 13)
        lines = page.wait_for_line("Game over")
        assert lines[0] == "Game over", "\n".join(lines + page.handheld("console")[-10:])
        assert page.handheld("saves") > 13  # data/ reached IndexedDB after each turn
        page.keys("enter wait:1500")  # OK: the last score stands (no taking it back), the game counts
        check_records_download_and_upload(context, page, url)
        page.take_over()  # the other tab had the saves: this one plays on with the uploaded records
        # Back on the end screen: OK, the initials (AAA), OK on the high-score table; then
        # a new game from the menu (one player, as set up), one roll, two dice held; then
        # the tab reloads (a power cut).
        lines = page.wait_for_line("Game over")
        assert lines[0] == "Game over", lines
        page.keys(" ".join(["enter wait:300"] * 5))
        lines = page.wait_for_line("Setup")
        assert lines[1:3] == ["Start game", "Players        1"], lines
        page.keys("enter wait:600 space wait:900 2 4 wait:300")
        dice = dice_state(page)
        assert [held for _face, held, _animal in dice] == [False, True, False, True, False]
        page.page.reload()
        page.page.wait_for_function("window.handheld.frames > 0")
        lines = page.wait_for_line("Saved game")
        assert " Continue" in lines, "\n".join(lines)
        page.keys("enter wait:500")
        assert dice_state(page) == dice


def stored_files(page, folder):
    """The page's IndexedDB copy of data/, written into ``folder``."""
    folder.mkdir()
    for name, data in page.page.evaluate("window.handheld.files()").items():
        (folder / name).write_bytes(bytes(data))
    return str(folder)


def check_records_download_and_upload(context, page, url):
    import tempfile
    from pathlib import Path

    from host_tools import records_json

    with page.page.expect_download() as download:
        page.page.click("#download")
    text = Path(download.value.path()).read_text()
    here = Path(tempfile.mkdtemp())
    # The same JSON as pull --json makes of the same files (CPython, host_tools/pull.py).
    assert json.loads(text) == json.loads(
        json.dumps(records_json.jsonable(records_json.read_folder(stored_files(page, here / "a"))))
    )
    assert json.loads(text)["stats"]["value"]["all"][0] == 1  # the game just played
    # Upload: junk is refused with one line and changes nothing; pull's JSON goes in.
    fresh = browse.Page(context.new_page())
    fresh.open_beside(url)  # a second tab: it takes the saves over
    (here / "junk.json").write_text('{"bogus": {"value": 1}}')
    fresh.page.set_input_files("#upload", str(here / "junk.json"))
    fresh.page.wait_for_function("document.getElementById('status').textContent.startsWith('Upload refused')")
    assert "unknown store" in fresh.page.evaluate("document.getElementById('status').textContent")
    (here / "records.json").write_text(text)
    saves = fresh.handheld("saves")
    fresh.page.set_input_files("#upload", str(here / "records.json"))
    fresh.page.wait_for_function("document.getElementById('status').textContent.startsWith('Records uploaded')")
    fresh.page.wait_for_function("window.handheld.saves > %d" % saves)
    uploaded = records_json.read_folder(stored_files(fresh, here / "b"))
    before = records_json.read_folder(str(here / "a"))
    assert uploaded["stats"] == before["stats"]
    assert uploaded["game"] == before["game"]
    fresh.page.close()


def test_first_frame_on_a_repeat_visit_offline_and_the_zoo_card(url):
    with browse.browser() as context:
        first = browse.Page(context.new_page())
        first.open(url)  # first visit: the service worker installs, the page reloads once
        first.page.close()
        page = browse.Page(context.new_page())
        page.open(url)
        first_frame = page.handheld("firstFrameMs")
        print("first frame %.0f ms after navigation (repeat visit)" % first_frame)
        assert first_frame < 5000  # the figure (0.8-1.1 s on the busy dev machine) goes in docs/web.md: no timing gate
        page.keys(slow(ZOO_SOLO) + " space wait:900")
        dice = dice_state(page)
        assert all(animal for _face, _held, animal in dice), dice  # animals on the dice, as on the device
        assert all(1 <= face <= 6 for face, _held, _animal in dice)
        # Offline once loaded: the service worker serves the whole site from its cache.
        page.page.close()  # (one tab plays at a time)
        context.set_offline(True)
        offline = browse.Page(context.new_page())
        offline.open(url)
        assert offline.page.evaluate("crossOriginIsolated")
        assert offline.handheld("frames") > 0
        offline.page.close()


def test_phone_viewport_fits_and_plays_by_touch(url):
    with browse.browser(**browse.PHONE) as context:
        page = browse.Page(context.new_page(), touch=True)
        page.open(url)
        box = page.page.locator("#handheld").bounding_box()
        assert box["x"] >= 0, box
        assert box["x"] + box["width"] <= 390, box
        assert box["y"] + box["height"] <= 844, box
        page.keys("enter wait:300")  # the splash, then Setup
        assert page.wait_for_line("Setup")[0].startswith("Setup")
        before = page.oled_pixels()
        page.keys("down wait:300")  # the cursor moves to Players
        after = page.oled_pixels()
        assert after != before
        assert screen_lines(after)[0].startswith("Setup")
        # Sound: the first touch started WebAudio; the buzzer's tones reach it.
        page.keys("up wait:200 enter wait:1500 space wait:900")
        assert page.page.evaluate("window.handheld.audio()") == "running"
        assert page.handheld("tones") > 0


def test_the_page_stays_responsive_while_the_firmware_computes(url):
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys(slow(FOUR_CPUS))  # four computer players: the firmware computes turn after turn
        page.page.evaluate("""() => { window.gaps = []; let last = performance.now();
            window.lag = setInterval(() => { const now = performance.now(); gaps.push(now - last); last = now; }, 10); }""")
        time.sleep(4)
        gaps = page.page.evaluate("clearInterval(window.lag) || window.gaps")
        busy = page.handheld("busy")
        frames = page.handheld("frames")
        print(
            "main thread: longest gap %.0f ms over %d ticks; worker bursts > 1 ms: %d, longest %.1f ms"
            % (max(gaps), len(gaps), len(busy), page.handheld("busyMax"))
        )
        assert len(gaps) > 100, max(gaps)
        assert max(gaps) < 250, max(gaps)  # the page's own loop keeps running
        box = page.page.locator('[data-button="7"]').bounding_box()  # DOWN: the page answers at once
        page.page.mouse.move(box["x"] + 5, box["y"] + 5)
        page.page.mouse.down()
        assert page.page.evaluate("document.querySelector('[data-button=\"7\"]').classList.contains('down')")
        page.page.mouse.up()
        assert busy
        assert frames > 10  # the CPU turns did run meanwhile


def test_an_advisor_hint_in_the_browser(url):
    # The coach prepares the hint (the advisor's turn) when the dice land; timed as the
    # worker's busy stretches between two sleeps (the figure in docs/web.md). The first
    # roll also loads the advisor's code and table; the second is the advisor alone.
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys(slow(SOLO))
        rolls = []
        for _ in range(2):
            before = len(page.handheld("busy"))
            page.keys("space wait:1200")
            rolls.append(page.handheld("busy")[before:])
        page.keys("m wait:600")
        lines = page.wait_for_line("Hint")
        assert lines[0].startswith("Hint P1"), "\n".join(lines)
        # The bursts are figures, not a test of speed: since the table opens a part a
        # frame and the idle frames sleep, a fast host's advisor turn can stay
        # under the worker's 1 ms threshold (docs/web.md quotes them).
        print("advisor: worker bursts after the first roll %s ms, after the second %s ms" % tuple(rolls))
        assert page.handheld("busyMax") > 0  # the worker timed its stretches


def test_without_playwright_the_browser_says_how_to_get_it():
    # A .venv older than the playwright pin ran these tests into ModuleNotFoundError.
    probe = (
        "import sys; sys.modules['playwright'] = None\n"
        "from host_tools.browser import browse\n"
        "with browse.browser():\n"
        "    pass\n"
    )
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert proc.stderr == browse.NO_PLAYWRIGHT + "\n", proc.stderr
