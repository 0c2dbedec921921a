"""The browser handheld as an app: what it says when the browser will not run it (site data
blocked, plain http from a LAN address), that Chromium finds it installable, and that it
can be played without seeing it (a whole turn from the accessibility tree and the live
region alone, a score taken back, the page's word on how to quit and the quit it asks),
with its targets, LED contrast and language as WCAG 2.2 AA asks.
Headless Chromium on the built site served on 127.0.0.1 (host_tools/browser/). Skipped,
with one line saying how to get it, when no Chromium is installed.
"""

import re
import time

import pytest

from host_tools.browser import browse, site

if browse.chromium_path() is None:
    pytest.skip(browse.HOW_TO_GET, allow_module_level=True)


@pytest.fixture(scope="module")
def url(tmp_path_factory, device_tables):
    site.install_port()
    out = str(tmp_path_factory.mktemp("site"))
    site.build_site(out, tables=device_tables)
    with browse.serving(out) as address:
        yield address


def status_of(page, timeout=15000):
    page.wait_for_function("document.getElementById('status').textContent.length > 25", timeout=timeout)
    return page.evaluate("document.getElementById('status').textContent")


def test_site_data_blocked_names_the_cause_and_the_fix(url):
    with browse.browser(preferences=browse.SITE_DATA_BLOCKED) as context:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(url)
        said = status_of(page)
        assert "site data" in said, said
        assert "Allow site data for this site" in said, said
        assert errors == []


def test_plain_http_from_a_lan_name_says_https_or_localhost(url):
    port = url.rsplit(":", 1)[1].strip("/")
    with browse.browser(args=browse.LAN_ARGS) as context:
        page = context.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto("http://%s:%s/" % (browse.LAN_NAME, port))
        said = status_of(page)
        assert "plain http from %s:%s" % (browse.LAN_NAME, port) in said, said
        assert "https" in said
        assert "http://localhost:%s/" % port in said, said
        assert errors == []


def test_chromium_finds_it_installable_and_it_opens_offline(url):
    with browse.browser() as context:
        first = browse.Page(context.new_page())
        first.open(url)  # the first visit: the service worker installs, the page reloads once
        first.page.close()
        page = browse.Page(context.new_page())
        page.open(url)
        cdp = context.new_cdp_session(page.page)
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["errors"] == []
        assert '"display": "standalone"' in manifest["data"]
        # The start page and all it needs come from the service worker's cache.
        page.page.close()  # one tab plays: the next one is the app opened offline
        context.set_offline(True)
        offline = browse.Page(context.new_page())
        offline.open(url)
        assert offline.handheld("frames") > 0


def luminance(rgb):
    def channel(c):
        c /= 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def rgb_of(colour):
    if colour.startswith("#"):
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return tuple(int(n) for n in re.findall(r"\d+", colour))


class Listener:
    """A player who does not see the screen: finds controls by role and name, hears the
    live region."""

    def __init__(self, page):
        self.page = page
        self.heard = 0
        # Everything the live region says, in order, as a screen reader hears it.
        page.get_by_role("status").evaluate(
            "region => { window.heard = [region.textContent];"
            " new MutationObserver(() => { if (region.textContent) heard.push(region.textContent); })"
            ".observe(region, { childList: true, characterData: true, subtree: true }); }"
        )

    def press(self, name):
        # Enter on the focused button: a keyboard's or a screen reader's activation.
        self.heard = self.page.evaluate("window.heard.length")
        self.page.get_by_role("button", name=name, exact=True).press("Enter")
        time.sleep(0.15)

    def hear(self, pattern, timeout=10):
        """Wait until the live region says something matching ``pattern`` after the last
        press; returns it."""
        deadline = time.monotonic() + timeout
        while True:
            said = self.page.evaluate("window.heard")
            for i in range(self.heard, len(said)):
                if re.search(pattern, said[i]):
                    return said[i]
            if time.monotonic() > deadline:
                raise AssertionError("never heard %r; heard: %r" % (pattern, said[self.heard :]))
            time.sleep(0.05)

    def screen(self):
        """The whole screen as the accessibility tree has it (the OLED's name)."""
        return self.page.get_by_role("img", name=re.compile("screen")).get_attribute("aria-label")

    def press_until(self, name, pattern, most=6):
        for _ in range(most):
            self.press(name)
            try:
                return self.hear(pattern, timeout=1.5)
            except AssertionError:
                continue
        raise AssertionError("pressed %s %d times, never heard %r" % (name, most, pattern))


def test_a_whole_turn_from_the_accessibility_tree_and_the_live_region(url):
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        you = Listener(page.page)
        you.hear(r"Start game \(selected\)")  # the splash ends by itself: Setup, the cursor on Start game
        you.press("DOWN")
        you.hear(r"Players 2 \(selected\)")
        you.press_until("OK", r"Players 1 \(selected\)")
        you.press("UP")
        you.hear(r"Start game \(selected\)")
        you.press("OK")
        you.hear(r"P1 Roll 0/3")
        you.press("ROLL")
        first = you.hear(r"Dice: \d, \d, \d, \d, \d\.")
        dice = re.search(r"Dice: ([\d, ]+)\.", first).group(1)
        you.hear(r"Roll 1/3")
        holds = page.page.get_by_role("button", name=re.compile("^hold die"))
        assert holds.count() == 5
        you.press("hold die 2")
        you.hear(r"Held: 2\.")
        you.press("hold die 4")
        you.hear(r"Held: 2, 4\.")
        pressed = [holds.nth(i).get_attribute("aria-pressed") for i in range(5)]
        assert pressed == ["false", "true", "false", "true", "false"]
        you.press("ROLL")
        second = you.hear(r"Dice: [\d, ]+\. Held: 2, 4\.")
        kept = re.search(r"Dice: ([\d, ]+)\.", second).group(1).split(", ")
        assert [kept[1], kept[3]] == [dice.split(", ")[1], dice.split(", ")[3]]  # held dice stayed
        you.hear(r"Roll 2/3")
        points = int(re.search(r"\+(\d+) \(selected\)", you.screen()).group(1))  # the box the cursor is on
        you.press("OK")  # look at it
        you.hear(r"OK = score")
        you.press("OK")  # and score it: the next turn, with the points in the total
        total = you.hear(r"P1 Roll 0/3 \d+")
        assert int(re.search(r"P1 Roll 0/3 (\d+)", total).group(1)) == points
        # Until the next roll the score can go back: UP, the same dice, holds and roll.
        assert "UP: take back" in you.screen()
        you.press("UP")
        you.hear(r"P1 Roll 2/3 0")
        assert [holds.nth(i).get_attribute("aria-pressed") for i in range(5)] == pressed
        # The page says how to quit a game, and holding M there asks.
        assert "hold M" in page.page.locator("[data-t=keys]").text_content()
        page.page.evaluate("document.activeElement.blur()")  # the keys go to the game
        you.heard = page.page.evaluate("window.heard.length")
        page.page.keyboard.down("m")
        time.sleep(1.0)
        page.page.keyboard.up("m")
        you.hear(r"Quit this game\?")


def test_a_german_browser_plays_in_german_page_and_handheld(url):
    # The page starts in the browser's language and hands it to the handheld, whose own
    # texts (the firmware's catalog) come out of the live region in German too.
    with browse.browser(locale="de-DE") as context:
        page = browse.Page(context.new_page())
        page.open(url)
        assert page.page.evaluate("document.documentElement.lang") == "de"
        you = Listener(page.page)
        you.hear(r"Spiel starten \(ausgew\u00e4hlt\)")
        you.press("RUNTER")
        you.hear(r"Spieler 2 \(ausgew\u00e4hlt\)")
        you.press_until("OK", r"Spieler 1 \(ausgew\u00e4hlt\)")
        you.press("HOCH")
        you.press("OK")
        you.hear(r"S1 Wurf 0/3")  # S: Spieler
        you.press("W\u00dcRFELN")
        you.hear(r"W\u00fcrfel: \d, \d, \d, \d, \d\.")
        you.press("W\u00fcrfel 2 halten")
        you.hear(r"Gehalten: 2\.")


def test_targets_led_contrast_and_the_page_language(url):
    with browse.browser(**browse.PHONE) as context:
        page = browse.Page(context.new_page(), touch=True)
        page.open(url)
        for box in page.page.locator("button, label.small, select").evaluate_all(
            "els => els.filter(e => e.offsetParent).map(e => [e.id || e.textContent, e.getBoundingClientRect().width, e.getBoundingClientRect().height])"
        ):
            name, width, height = box
            assert width >= 24, box  # WCAG 2.2 target size (minimum)
            assert height >= 44, box  # 44 where the layout allows: it does, for every control
        lit, unlit = page.page.evaluate("window.handheld.ledColours(8)")  # the menu's default brightness
        ratio = (luminance(rgb_of(lit)) + 0.05) / (luminance(rgb_of(unlit)) + 0.05)
        assert ratio >= 3, ratio  # non-text contrast of a lit dot against an unlit one
        # The page's language follows the choice, and so do its own texts.
        assert page.page.evaluate("document.documentElement.lang") == "en"
        page.page.select_option("#language", "de")
        assert page.page.evaluate("document.documentElement.lang") == "de"
        assert page.page.get_by_role("button", name="W\u00dcRFELN").count() == 1
        page.page.reload()
        page.page.wait_for_function("window.handheld && window.handheld.frames > 0")
        assert page.page.evaluate("document.documentElement.lang") == "de"  # kept


def test_a_hidden_page_does_nothing_until_it_shows_again(url):
    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url)
        page.keys("enter wait:300")
        hide = (
            "h => { Object.defineProperty(document, 'hidden', { get: () => h, configurable: true });"
            " document.dispatchEvent(new Event('visibilitychange')); }"
        )
        page.page.evaluate(hide, True)
        page.page.wait_for_function("window.handheld.paused")  # the firmware stopped at its sleep
        frames = page.handheld("frames")
        page.keys("down wait:300 down wait:300")  # nothing runs to take them now
        time.sleep(0.5)
        assert page.handheld("frames") == frames
        page.page.evaluate(hide, False)
        page.page.wait_for_function("!window.handheld.paused")
        page.keys("down wait:300")
        page.page.wait_for_function("f => window.handheld.frames > f", arg=frames)
        assert page.wait_for_line("Setup")[0].startswith("Setup")


def day_code(ms):
    """The day's challenge as the page computes it (page.mjs dayCode), written apart."""
    n = (ms // 86400000 * 7919 + 1234) % 26**4
    return "".join(chr(65 + n // 26**i % 26) for i in (3, 2, 1, 0))


def test_a_challenge_link_the_days_challenge_and_the_line_to_share(url):
    from host_tools.simulator.golden import SOLO

    with browse.browser() as context:
        page = browse.Page(context.new_page())
        page.open(url + "?challenge=kqzx")
        said = page.page.locator("#challengeSaid").text_content()
        assert said.startswith("Challenge KQZX: the games you start in the menu roll this code"), said
        today = page.page.locator("#today")
        for _ in range(2):  # the date could turn between the page's reading and this one
            code = day_code(int(time.time() * 1000))
            if today.text_content() == "Today's challenge: %s" % code:
                break
        assert today.text_content() == "Today's challenge: %s" % code
        assert today.get_attribute("href") == "?challenge=%s" % code
        assert page.page.locator("#share").is_hidden()
        lines = page.wait_for_line("Setup")
        assert lines[1].split() == ["Challenge", "KQZX"], lines  # the menu says what Start does
        assert SOLO.startswith("enter ")  # the splash, over by now
        page.keys(browse.slow(SOLO[len("enter ") :]) + browse.HUMAN_TURN * 13)
        lines = page.wait_for_line("Game over")
        assert lines[0] == "Game over", "\n".join(lines + page.handheld("console")[-10:])
        total = int(lines[1].split()[-1])
        page.page.wait_for_selector("#share:not([hidden])", timeout=5000)
        assert (
            page.page.locator("#shareText").text_content()
            == "My challenge KQZX: %d points. Play the same dice:" % total
        )
        link = page.page.locator("#shareLink")
        assert link.get_attribute("href").endswith("/?challenge=KQZX"), link.get_attribute("href")
        assert link.text_content() == link.get_attribute("href")
        # A link with no code in it plays random dice, and says so.
        page.page.goto(url + "?challenge=ab1")
        page.page.wait_for_function("window.handheld && window.handheld.frames > 0")
        assert "is not a challenge code" in page.page.locator("#challengeSaid").text_content()
