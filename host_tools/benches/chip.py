"""Device figures on the real firmware: MicroPython v1.28.0 for the Pico on an emulated RP2040.

The game is flashed with ``host_tools flash`` (exact strategy table) onto an erased
emulated Pico (host_tools chip), then measured there:
- heap free after a power-on boot (raw REPL, nothing imported) and after ``import rules,
  game, app, session`` (``gc.collect()`` before each reading);
- the lowest ``gc.mem_free()`` while four advisor computers play a whole game: the board's
  ``sleep_ms`` is wrapped so every frame samples the free heap (raw: garbage counts as used)
  and every 50th frame samples it after ``gc.collect()`` (live data only); target >= 60 KB;
- the advisor's turn (``prepare`` + ``options``) in emulated microseconds, median of 7
  cards; rp2040js counts Cortex-M0+ cycles at 125 MHz with zero-wait-state memory, so on
  interpreter code its times read 0-13 % shorter than a real Pico's; target <= 100 ms;
- flash free (``os.statvfs``) after ``make flash`` with the exact table.
Needs the UF2 and bootrom (build/rp2/ or ../shared/rp2/) and Node; says so when missing.
"""
import os
import re
import statistics
import tempfile
import time

from host_tools.simulator import chip_session
from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.chip import ChipDevice
from host_tools.simulator.screen import screen_lines

ROLL = 5
GAME_MS = 600000  # emulated: four computers finish well within this

_HEAP = "import gc\ngc.collect()\nprint('BOOT', gc.mem_free())\nimport rules, game, app, session\ngc.collect()\nprint('IMPORTS', gc.mem_free())"
_STATVFS = "import os\ns = os.statvfs('/')\nprint('FLASH', s[0] * s[2], s[0] * s[3])"
_ADVISOR = """
import gc, time, rules, advisor, strategy_table
r = rules.make_ruleset()
adv = advisor.Advisor(r, strategy_table.StrategyTable(open('strategy-%s.bin' % r.name, 'rb')))
codes = [0] * 32
values = [0] * 32
card = rules.new_card()
times = []
for box in range(7):
    card[box] = box + 1  # a different card each time: prepare does the whole work
    t = time.ticks_us()
    adv.prepare(card)
    adv.options([1, 2, 3, 4, 5], 2, codes, values)
    times.append(time.ticks_diff(time.ticks_us(), t))
print('ADVISOR', ' '.join(str(t) for t in times))
"""
# Pasted into the REPL after a safe-mode boot: the real main.main() on a board whose
# sleep_ms samples the heap.
_LOWEST = """
import gc
import boards.pico as board
_build = board.build
LOW = [1 << 30, 1 << 30]
def build(cfg):
    hw = _build(cfg)
    sleep = hw.sleep_ms
    count = [0]
    def probe(ms):
        free = gc.mem_free()
        if free < LOW[0]:
            LOW[0] = free
        count[0] += 1
        if count[0] % 50 == 0:
            gc.collect()
            free = gc.mem_free()
            if free < LOW[1]:
                LOW[1] = free
        sleep(ms)
    hw.sleep_ms = probe
    return hw
board.build = build
gc.collect()
import main
main.main()
"""


def _number(pattern, text):
    found = re.search(pattern, text)
    return [int(n) for n in found.groups()] if found else None


def lowest_heap(image):
    """(raw lowest free, lowest free after collect, finished) for a 4-computer game."""
    chip = ChipDevice(image)
    try:
        chip.buttons = 1 << ROLL  # safe mode: the REPL stays free for the probe
        chip.run_to_clock(2500)
        chip.buttons = 0
        frames = chip.frames
        chip.write_serial(b"\r\x05" + _LOWEST.encode().replace(b"\n", b"\r") + b"\x04")
        while chip.frames == frames and chip.clock_ms < 30000:  # main.main() draws its splash
            chip.run_to_clock(chip.clock_ms + 50)
        chip.boot(limit_ms=chip.clock_ms + 20000)
        presses, end = sim_keys.parse(sim_golden.FOUR_CPUS + " wait:%d" % GAME_MS)
        levels = sim_keys.levels(presses)
        finished = False
        at = 0
        while at < end and not finished:
            at = min(end, at + 30000)
            chip.run_until(at, levels)
            finished = screen_lines(chip.oled_pixels())[0] == "Game over"
        chip.write_serial(b"\x03\x03")
        chip.run_to_clock(chip.clock_ms + 500)
        chip.write_serial(b"print('LOW', LOW[0], LOW[1])\r")
        chip.run_to_clock(chip.clock_ms + 500)
        low = _number(r"LOW (\d+) (\d+)", "\n".join(chip.console))
    finally:
        chip.close()
    return (low or [0, 0]) + [finished]


def run():
    firmware, _bootrom, missing = chip_session.fixture_files()
    if missing:
        print("bench chip: not run, %s" % missing)
        return
    chip_session.ensure_node()
    with tempfile.TemporaryDirectory() as folder:
        image = os.path.join(folder, "flash.bin")
        t = time.monotonic()
        done = chip_session.flash_game(image, firmware)
        if done.returncode:
            print("bench chip: flash failed: %s" % (done.stderr.strip() or done.stdout.strip()))
            return
        print("bench chip: make flash onto an erased emulated Pico (exact table): %.0f s wall; %s"
              % (time.monotonic() - t, done.stdout.strip().splitlines()[-1]))
        with chip_session.serving(image) as (_device, port):
            out = chip_session.device_exec(port, _STATVFS)
            total, free = _number(r"FLASH (\d+) (\d+)", out)
            print("bench chip: flash after make flash: %d bytes free of %d (littlefs, 4 KiB blocks)" % (free, total))
            out = chip_session.device_exec(port, _HEAP)
            boot, imports = _number(r"BOOT (\d+)", out)[0], _number(r"IMPORTS (\d+)", out)[0]
            print("bench chip: heap free after boot %d bytes; after import rules, game, app, session %d (-%d)"
                  % (boot, imports, boot - imports))
            found = re.search(r"ADVISOR ([\d ]+)", chip_session.device_exec(port, _ADVISOR))
        turns = [int(n) for n in found.group(1).split()] if found else []
        if turns:
            median = statistics.median(turns)
            print("bench chip: advisor turn (prepare + options) median %.1f ms emulated of %d cards, "
                  "min %.1f max %.1f (target <= 100 ms; a real Pico: 0-13 %% slower on interpreter code)"
                  % (median / 1000, len(turns), min(turns) / 1000, max(turns) / 1000))
        raw, live, finished = lowest_heap(image)
        print("bench chip: lowest heap free in a 4-computer advisor game: %d bytes after gc.collect() "
              "(target >= 61440), %d raw (garbage counted)%s"
              % (live, raw, "" if finished else "; the game did NOT reach its end"))
