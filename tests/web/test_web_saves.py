"""The browser's saves under the ways they break: two tabs of one site, storage that fails,
stored data that cannot be trusted, uploads that are too big or wrong, two copies of the
site on one origin, a new build published over an old one. Headless Chromium on the
built site, served on 127.0.0.1 as a plain static host serves it (host_tools/browser/).
Skipped, with one line saying how to get it, when no Chromium is installed.
"""

import json
import shutil

import pytest

from host_tools.browser import browse, site
from host_tools.simulator.golden import SOLO
from host_tools.simulator.screen import dice_state

if browse.chromium_path() is None:
    pytest.skip(browse.HOW_TO_GET, allow_module_level=True)

slow = browse.slow
ROLL_AND_HOLD = slow(SOLO) + " space wait:900 2 4 wait:400"  # a game started, rolled, dice 2 and 4 held


@pytest.fixture(scope="module")
def sites(tmp_path_factory, device_tables):
    """Two builds that differ (another card: another device.cfg, another tree), each in
    its own folder of one served root: /a/ and /b/."""
    site.install_port()
    root = tmp_path_factory.mktemp("root")
    site.build_site(str(root / "a"), tables=device_tables)
    site.build_site(str(root / "b"), rules="free", tables=device_tables)
    return root


@pytest.fixture(scope="module")
def served(sites):
    with browse.serving(str(sites)) as address:
        yield address


def notice(page):
    return page.page.evaluate("document.getElementById('notice').textContent")


def wait_notice(page, text, timeout=15000):
    page.page.wait_for_function(
        "t => document.getElementById('notice').textContent.includes(t)", arg=text, timeout=timeout
    )
    return notice(page)


def status(page):
    return page.page.evaluate("document.getElementById('status').textContent")


def stored(page):
    return page.page.evaluate("window.handheld.files()")


def wait_saved(page, count):
    page.page.wait_for_function("n => window.handheld.saves > n", arg=count, timeout=15000)


def test_two_tabs_one_owns_the_saves_and_the_other_takes_over(served):
    url = served + "a/"
    with browse.browser() as context:
        a = browse.Page(context.new_page())
        a.open(url)
        a.keys(ROLL_AND_HOLD)
        dice = dice_state(a)
        assert [held for _f, held, _a in dice] == [False, True, False, True, False]
        saves = a.handheld("saves")
        b = browse.Page(context.new_page())
        b.page.goto(url)
        # The second tab says the first one has the saves, and does not run the firmware.
        assert "another tab" in wait_notice(b, "another tab")
        assert b.handheld("frames") == 0
        b.keys("down wait:200 enter wait:400")  # presses in the second tab change nothing
        # Taking over re-reads the saves: the first tab's game goes on here, same dice.
        b.page.click("#takeover")
        b.page.wait_for_function("window.handheld.frames > 0")
        assert " Continue" in b.wait_for_line("Saved game")
        assert "another tab" in wait_notice(a, "another tab")
        frames = a.handheld("frames")
        a.keys("space wait:600")  # the first tab has stopped: no frame, no save
        assert a.handheld("frames") == frames
        assert a.handheld("saves") == saves
        b.keys("enter wait:600")
        assert dice_state(b) == dice
        # And back: the first tab takes over and finds the second tab's state.
        a.page.click("#takeover")
        a.page.wait_for_function("f => window.handheld.frames > f", arg=frames)
        assert "another tab" in wait_notice(b, "another tab")
        a.wait_for_line("Saved game")


def test_a_save_of_a_tab_that_lost_the_saves_never_lands(served):
    # The fence itself: a save in flight from the tab that lost the saves arrives after
    # the new owner read them, and is refused.
    url = served + "a/"
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        result = page.page.evaluate(
            """async () => {
            const { Saves } = await import("./store.mjs?v=" + window.handheld.version);
            const lost = [];
            const first = new Saves({ onProblem: () => {}, onLost: () => lost.push("first") });
            const second = new Saves({ onProblem: () => {}, onLost: () => lost.push("second") });
            first.tab = "first"; second.tab = "second";
            await first.claim();
            const one = await first.store({ "game.a": new Uint8Array([1]) });
            const took = await second.claim();            // the second takes over: reads the first's save
            const late = await first.store({ "game.a": new Uint8Array([2]) });   // a save in flight
            const kept = await second.read();
            return { one, took: Array.from(took["game.a"]), late, kept: Array.from(kept["game.a"]), lost };
        }"""
        )
        assert result == {"one": True, "took": [1], "late": False, "kept": [1], "lost": ["first"]}


# The browser's answer to a save when the site's storage is full: the transaction aborts
# with QuotaExceededError. Made here, because Chromium does not hold IndexedDB to a quota
# override (DevTools' Storage.overrideQuotaForOrigin at 8 MiB: 400 MiB were written).
FULL = """
window.storageFull = false;
const put = IDBObjectStore.prototype.put;
IDBObjectStore.prototype.put = function (...args) {
    const request = put.apply(this, args);
    if (window.storageFull) { this.transaction.full = true; this.transaction.abort(); }
    return request;
};
const error = Object.getOwnPropertyDescriptor(IDBTransaction.prototype, "error").get;
Object.defineProperty(IDBTransaction.prototype, "error", { get() {
    return this.full ? new DOMException("The quota has been exceeded.", "QuotaExceededError") : error.call(this);
} });
"""


def test_storage_that_fails_is_reported_and_the_game_goes_on(served):
    url = served + "a/"
    with browse.browser() as context:
        context.add_init_script(FULL)
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys("enter wait:300")
        page.page.evaluate("window.storageFull = true")
        before = page.oled_pixels()
        page.keys("down wait:200 enter wait:300")  # a setting changed: the menu saves it
        assert "full" in wait_notice(page, "full")
        assert page.oled_pixels() != before  # the game goes on
        saves = page.handheld("saves")
        page.page.evaluate("window.storageFull = false")
        page.keys("enter wait:300")
        assert "again" in wait_notice(page, "again")
        wait_saved(page, saves)
        # The database deleted while the page has it open (another page, the browser's
        # "clear site data"): the delete goes through, and the next save writes it all anew.
        other = context.new_page()
        other.goto(url + "site.json")
        deleted = other.evaluate(
            """name => new Promise((resolve) => {
            const r = indexedDB.deleteDatabase(name);
            r.onsuccess = () => resolve("deleted");
            r.onerror = () => resolve("error");
            setTimeout(() => resolve("blocked"), 5000);
        })""",
            "pico-yahtzee /a/",
        )
        assert deleted == "deleted"
        saves = page.handheld("saves")
        page.keys("enter wait:300")
        wait_saved(page, saves)
        assert "removed" in wait_notice(page, "removed")
        assert any(name.startswith("setup.") for name in stored(page))


def test_saves_blocked_by_the_browser_are_reported_and_the_game_goes_on(served):
    # A browser that runs the service worker but refuses IndexedDB (a privacy setting).
    url = served + "a/"
    with browse.browser() as context:
        context.add_init_script(
            """IDBFactory.prototype.open = function () {
            const request = { result: null, error: new DOMException("The user denied permission to access the database.", "UnknownError") };
            setTimeout(() => request.onerror && request.onerror());
            return request;
        };"""
        )
        page = browse.Page(context.new_page())
        page.open(url)
        assert "blocked" in wait_notice(page, "blocked")
        page.keys("enter wait:300")
        assert page.wait_for_line("Setup")[0].startswith("Setup")


def test_stored_data_is_untrusted_entry_by_entry(served):
    url = served + "a/"
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys(ROLL_AND_HOLD)
        dice = dice_state(page)
        # What another program (or a damaged disk) could leave in the record.
        page.page.evaluate(
            """async () => {
            const files = await window.handheld.files();
            const record = {};
            for (const [k, v] of Object.entries(files)) record[k] = new Uint8Array(v);
            const text = (s) => new TextEncoder().encode(s);
            Object.assign(record, {
                "../main.py": text("print('replaced')\\nraise SystemExit"),
                "": text("x"), "stats.a": null, "scores.a": 42, "sub/dir": text("x"),
                "huge": new Uint8Array(70000),
            });
            await new Promise((resolve, reject) => {
                const open = indexedDB.open("pico-yahtzee /a/", 1);
                open.onsuccess = () => {
                    const tx = open.result.transaction("flash", "readwrite");
                    tx.objectStore("flash").put(record, "data");
                    tx.oncomplete = () => { open.result.close(); resolve(); };
                    tx.onerror = () => reject(tx.error);
                };
            });
        }"""
        )
        page.page.reload()
        page.page.wait_for_function("window.handheld && window.handheld.frames > 0")
        said = wait_notice(page, "left out")
        for name in ('"../main.py"', '""', '"stats.a"', '"scores.a"', '"sub/dir"', '"huge"'):
            assert name in said, said
        assert " Continue" in page.wait_for_line("Saved game")  # the rest was kept
        page.keys("enter wait:600")
        assert dice_state(page) == dice
        assert "replaced" not in page.handheld("console")


def clear_status(page):
    page.page.evaluate("document.getElementById('status').textContent = ''")


def upload(page, path):
    page.page.set_input_files("#upload", str(path))


def test_upload_is_bounded_and_checked_store_by_store(served, tmp_path):
    url = served + "a/"
    with browse.browser() as context:
        context.add_init_script(
            "window.readWhole = 0; for (const m of ['text', 'arrayBuffer']) { const f = Blob.prototype[m];"
            " Blob.prototype[m] = function () { window.readWhole++; return f.apply(this, arguments); }; }"
        )
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys("enter wait:300 down wait:200 enter wait:300")  # something saved to compare with
        wait_saved(page, 0)
        before = stored(page)
        reads = page.page.evaluate("window.readWhole")
        big = tmp_path / "big.json"
        big.write_bytes(b" " * (2 * 1024 * 1024))
        upload(page, big)
        page.page.wait_for_function("document.getElementById('status').textContent.startsWith('Upload refused')")
        assert "2048 KiB" in status(page)
        assert page.page.evaluate("window.readWhole") == reads  # refused before reading it
        wrong = tmp_path / "wrong.json"
        wrong.write_text(
            json.dumps(
                {
                    "stats": {"value": "x"},
                    "scores": {"value": [[1, 2, 3]]},
                    "game": {"value": {"bytes": "zz"}},
                    "setup": {"value": {"players": 9}},
                }
            )
        )
        clear_status(page)
        upload(page, wrong)
        page.page.wait_for_function("document.getElementById('status').textContent.includes('hex')")
        assert status(page) == "Upload refused, nothing changed: game: its bytes are not hex"  # one line, no traceback
        shapes = tmp_path / "shapes.json"
        shapes.write_text(
            json.dumps({"stats": {"value": "x"}, "scores": {"value": [[1, 2, 3]]}, "setup": {"value": {}}})
        )
        clear_status(page)
        upload(page, shapes)
        page.page.wait_for_function("document.getElementById('status').textContent.startsWith('Upload refused')")
        lines = status(page).splitlines()
        for store in ("scores", "setup", "stats"):
            assert sum(1 for line in lines if line.startswith(store + ":") or ": " + store + ":" in line) == 1, lines
        assert stored(page) == before  # nothing written
        assert page.handheld("frames") > 0


def test_two_copies_on_one_origin_keep_their_saves_and_caches_apart(served):
    with browse.browser() as context:
        a = browse.Page(context.new_page())
        a.open(served + "a/")
        a.keys(ROLL_AND_HOLD)
        a.page.close()
        b = browse.Page(context.new_page())
        b.open(served + "b/")
        assert b.page.evaluate("crossOriginIsolated")
        b.keys("enter wait:300")
        assert b.wait_for_line("Setup")[0].startswith("Setup")  # no saved game of the other copy
        assert not b.page.evaluate("document.getElementById('notice').textContent")
        names = b.page.evaluate("caches.keys()")
        assert any(" /a/ " in n for n in names), names
        assert any(" /b/ " in n for n in names), names
        b.page.close()
        # The other copy's offline cache survived this one's service worker.
        context.set_offline(True)
        offline = browse.Page(context.new_page())
        offline.open(served + "a/")
        assert offline.handheld("frames") > 0
        assert " Continue" in offline.wait_for_line("Saved game")


def test_a_new_build_is_never_mixed_with_the_cached_one(sites, tmp_path):
    root = tmp_path / "root"
    shutil.copytree(sites / "a", root / "site")
    old = json.loads((root / "site" / "site.json").read_text())["version"]
    new = json.loads((sites / "b" / "site.json").read_text())["version"]
    with browse.serving(str(root)) as address, browse.browser() as context:
        url = address + "site/"
        page = browse.Page(context.new_page())
        page.open(url)
        assert page.handheld("version") == old
        # The new build replaces the old one on the host, as a deploy does.
        shutil.move(str(root / "site"), str(root / "gone"))
        shutil.copytree(sites / "b", root / "site")
        page.page.reload()
        page.page.wait_for_function("window.handheld && window.handheld.frames > 0")
        assert page.handheld("version") == old  # the cached build, whole
        assert "stopped" not in status(page)
        page.keys("enter wait:300")
        assert page.wait_for_line("Setup")[0].startswith("Setup")
        # Meanwhile the new build was cached whole: the next load plays it.
        wait_notice(page, "new version", timeout=30000)
        page.page.reload()
        page.page.wait_for_function("window.handheld && window.handheld.frames > 0")
        assert page.handheld("version") == new
        assert "stopped" not in status(page)
        page.keys("enter wait:300")
        assert page.wait_for_line("Setup")[0].startswith("Setup")
