"""``python -m host_tools web --screenshots``: the README's pictures of the page
(docs/img/web-*.png), each scene played by pointer presses in headless Chromium on the
site in --out (built first)."""

import os

import host_tools
from host_tools.browser import browse
from host_tools.browser.browse import HUMAN_TURN, slow
from host_tools.simulator.golden import SOLO, TWO_HUMANS, ZOO_SOLO

IMAGE_DIR = os.path.join(host_tools.REPO, "docs", "img")
# name -> (key script, phone viewport?, reload afterwards?)
SCENES = {
    "web-menu": ("enter wait:300", False, False),
    "web-turn": (slow(TWO_HUMANS) + " wait:4500 space wait:900 2 4 wait:300", False, False),
    "web-zoo": (slow(ZOO_SOLO) + " space wait:900 3 wait:300", False, False),
    "web-phone": (slow(SOLO) + " space wait:900 1 5 wait:300", True, False),
    "web-gameover": (slow(SOLO) + HUMAN_TURN * 13 + " wait:1500", False, False),
    "web-continue": (slow(SOLO) + " space wait:900 2 4 wait:300", False, True),  # the reload offers Continue
}


def clash(folder, image_dir=IMAGE_DIR):
    """The picture ``make`` would write that is ``folder``, lies inside it or holds it
    (the site and a picture in one place), else None."""
    folder = os.path.realpath(folder)
    for name in SCENES:
        path = os.path.realpath(os.path.join(image_dir, name + ".png"))
        if folder == path or folder.startswith(path + os.sep) or path.startswith(folder + os.sep):
            return path
    return None


def make(folder, image_dir=IMAGE_DIR):
    if browse.chromium_path() is None:
        raise SystemExit("web: " + browse.HOW_TO_GET)
    made = []
    with browse.serving(folder) as url:
        for name, (script, phone, reload) in SCENES.items():
            with browse.browser(**(browse.PHONE if phone else {"viewport": {"width": 520, "height": 640}})) as context:
                page = browse.Page(context.new_page(), touch=phone)
                page.open(url)
                page.keys(script)
                if reload:
                    page.page.reload()
                    page.page.wait_for_function("window.handheld.frames > 0")
                    page.keys("wait:800")
                path = os.path.join(image_dir, name + ".png")
                page.page.screenshot(path=path, full_page=not phone)
                made.append(path)
    return made
