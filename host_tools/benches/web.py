"""The handheld in a browser (headless Chromium on the built site, served on 127.0.0.1 as a
plain static host): CPU of a page left open (menu, mid-turn, dimmed, hidden), first frame
on a cold and a warm load, and the bytes the host sent for each.

CPU is the time Chromium's processes spent (/proc, user + system) over a stretch of
wall time, as a share of one core: the page's renderer (the page, its worker with the
firmware, the service worker) and all of Chromium (with its browser and GPU processes,
which a desktop browser runs anyway). Dimmed is after the firmware's minute without a
press; hidden is the page told it is hidden (visibilitychange). Skipped with one line
without Chromium.
"""

import os
import statistics
import tempfile
import threading
import time

import host_tools

WINDOW_S = 10  # one CPU measurement
DIM_S = 62  # the firmware dims after a minute without a press (power.py)


def _ticks(pid):
    """utime + stime of ``pid`` in clock ticks, or None when it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return int(fields[11]) + int(fields[12])


def _chromium_processes():
    """{pid: is a renderer} of the Chromium processes started by this process."""
    parent, names = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                text = f.read()
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                names[int(entry)] = f.read().replace(b"\0", b" ")
        except OSError:
            continue
        parent[int(entry)] = int(text.rsplit(")", 1)[1].split()[1])
    me = os.getpid()
    found = {}
    for pid in parent:
        up, seen = pid, 0
        while up in parent and up != me and seen < 64:
            up, seen = parent[up], seen + 1
        if up == me and b"chrom" in names.get(pid, b"") and b"node" not in names[pid].split(b" ")[0]:
            found[pid] = b"--type=renderer" in names[pid]
    return found


def cpu_share(seconds=WINDOW_S):
    """(renderer share, all of Chromium's share) of one core over ``seconds``."""
    hz = os.sysconf("SC_CLK_TCK")
    processes = _chromium_processes()
    before = {pid: _ticks(pid) for pid in processes}
    time.sleep(seconds)
    renderer = total = 0
    for pid, is_renderer in processes.items():
        now = _ticks(pid)
        if now is None or before[pid] is None:
            continue
        spent = (now - before[pid]) / hz
        total += spent
        if is_renderer:
            renderer += spent
    return renderer / seconds, total / seconds


class _Counted:
    """Bytes the static host sent (the files' bodies), for a load's figure."""

    def __init__(self):
        self.sent = 0
        self.lock = threading.Lock()

    def add(self, n):
        with self.lock:
            self.sent += n


def _counting(counter):
    from host_tools.browser import serve

    class Handler(serve.QuietHandler):
        def copyfile(self, source, outputfile):
            data = source.read()
            counter.add(len(data))
            outputfile.write(data)

    return Handler


def _pct(share):
    return "%.1f %%" % (100 * share)


def run():
    from host_tools.browser import browse, site
    from host_tools.simulator.golden import SOLO

    if browse.chromium_path() is None:
        print("web: not run (%s)" % browse.HOW_TO_GET)
        return None
    host_tools.use_firmware()
    site.install_port()
    out = tempfile.mkdtemp(prefix="bench-web-")
    site.build_site(out)
    counter = _Counted()
    with browse.serving(out, _counting(counter)) as url, browse.browser() as context:
        started = time.monotonic()
        cold = browse.Page(context.new_page())
        cold.open(url, timeout=60000)
        cold_ms = (time.monotonic() - started) * 1000
        cold_bytes = counter.sent
        cold.page.close()
        warm_ms, warm_bytes = [], []
        for _ in range(3):
            counter.sent = 0
            page = browse.Page(context.new_page())
            page.open(url)
            warm_ms.append(page.handheld("firstFrameMs"))
            time.sleep(1)  # the page's look for a newer build
            warm_bytes.append(counter.sent)
            page.page.close()
        page = browse.Page(context.new_page())
        page.open(url)
        time.sleep(2)
        menu = cpu_share()
        page.keys(browse.slow(SOLO) + " space wait:1200 2 wait:300 4 wait:300")
        time.sleep(2)
        turn = cpu_share()
        time.sleep(max(0, DIM_S - WINDOW_S - 2))
        dimmed = cpu_share()
        page.page.evaluate(
            "Object.defineProperty(document, 'hidden', { get: () => true, configurable: true });"
            " document.dispatchEvent(new Event('visibilitychange'))"
        )
        time.sleep(2)
        hidden = cpu_share()
    print("first frame, cold load (service worker installs, one reload): %.0f ms after navigation" % cold_ms)
    print("first frame, warm load: %.0f ms after navigation (median of 3)" % statistics.median(warm_ms))
    print("bytes sent by the host: cold load %d KiB, warm load %d bytes" % (cold_bytes // 1024, max(warm_bytes)))
    for name, (renderer, total) in (("menu", menu), ("mid-turn", turn), ("dimmed", dimmed), ("hidden", hidden)):
        print("idle CPU, %s: page %s of a core, all of Chromium %s" % (name, _pct(renderer), _pct(total)))
    return None
