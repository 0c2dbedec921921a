"""Saves as the device UI makes them (flash writes per game), and the power budget.

Plays whole games in the headless simulator (the real firmware under MicroPython, with
save_session.py saving after every action) and watches the flash folder after every frame:
each new save of ``data/game`` raises its slot's sequence number, so the count is exact
and the bytes are each new slot file's size. The records files written at the end of the
game (stats, rolls, high scores) are counted the same way. The solo game is a human who
rolls three times per turn with hold changes in between; the 4-player game is four
computer players. Also: how long the device sleeps between polls while blank.

The power budget: the device's current and battery hours while playing, in the idle
menu, dimmed and blanked, from datasheet figures (the constants below) and what the
firmware does in the simulator's busy mode (its busy share, the LEDs lit and their
intensity, the OLED's lit pixels and contrast), before and after idle frames sleep in
lightsleep (hw.idle). docs/power_and_input.md explains the figures.
"""

import os
import tempfile

from host_tools.simulator import golden as sim_golden
from host_tools.simulator import keys as sim_keys
from host_tools.simulator.unix_port import SimDevice

SOLO = sim_golden.SOLO + " space 1 2 space 3 space enter enter" * 13
FOUR_CPU = sim_golden.FOUR_CPUS
STORES = ("game", "stats", "rolls", "scores")
_SLEEP_POLL_MS = 50  # firmware/power.py


def _newest(folder, store):
    """(sequence, size) of the newest valid-looking slot of ``store``, (0, 0) if none."""
    best = (0, 0)
    for suffix in (".a", ".b"):
        path = os.path.join(folder, store + suffix)
        try:
            with open(path, "rb") as f:
                head = f.read(8)
            size = os.path.getsize(path)
        except OSError:
            continue
        if len(head) == 8 and head[:2] == b"YZ":
            best = max(best, (int.from_bytes(head[4:8], "little"), size))
    return best


def play(keys, after_end="enter enter enter enter", limit_ms=400000):
    """Plays ``keys``; once the records appear (the end screen), ``after_end`` (initials).
    Returns {store: [writes, bytes]}."""
    counts = {store: [0, 0] for store in STORES}
    seen = {store: 0 for store in STORES}
    with tempfile.TemporaryDirectory() as flash:
        data = os.path.join(flash, "data")
        device = SimDevice(seed=17, flash_dir=flash)
        presses, end = sim_keys.parse(keys)
        levels = sim_keys.levels(presses)
        finished_at = None
        try:
            while device.now < limit_ms:
                ms = device.next_wait()
                device.buttons = levels(device.now)
                device.answer(ms)
                for store in STORES:
                    seq, size = _newest(data, store)
                    if seq > seen[store]:
                        counts[store][0] += seq - seen[store]
                        counts[store][1] += size * (seq - seen[store])
                        seen[store] = seq
                if finished_at is None and seen["stats"] and device.now > end:
                    finished_at = device.now + 500
                    more, stop = sim_keys.parse(after_end, start_ms=finished_at)
                    presses += more
                    levels = sim_keys.levels(presses)
                    limit_ms = stop + 500
        finally:
            device.close()
    return counts


def report(label, counts):
    game_writes, game_bytes = counts["game"]
    print(
        "%s: game saves %d (%d bytes, %d per save); records writes %s"
        % (
            label,
            game_writes,
            game_bytes,
            game_bytes // max(game_writes, 1),
            ", ".join("%s %d (%d B)" % (s, counts[s][0], counts[s][1]) for s in STORES[1:]),
        )
    )
    total = sum(c[0] for c in counts.values())
    print("  total per game: %d file writes, %d bytes" % (total, sum(c[1] for c in counts.values())))


def run():
    report("1 player (3 rolls, 3 hold changes per turn)", play(SOLO))
    report("4 computer players", play(FOUR_CPU, after_end="enter"))
    print(
        "blank: one timed lightsleep of %d ms per poll, %d polls a minute" % (_SLEEP_POLL_MS, 60000 // _SLEEP_POLL_MS)
    )
    budget()


if __name__ == "__main__":
    run()


# ---------------------------------------------------------------- the power budget
# Datasheet and measured figures (docs/power_and_input.md gives the sources):
RUN_MA = 25.0  # Pico at 125 MHz running MicroPython code, at VSYS (Pico datasheet 3.4, "Popcorn")
WFE_MA = 18.0  # assumed: between frames in time.sleep_ms the core waits (WFE), clocks stay on
SLEEP_MA = 1.3  # timed lightsleep (Pico datasheet "sleep"; 0.99 mA measured on VSYS, micropython#8832)
ISEG_MA = 40.0  # MAX7219 peak segment current with the modules' RSET of 10 kOhm (datasheet table)
MAX_QUIET_MA = 0.6  # assumed: a MAX7219 scanning with its segments dark (5 chips)
MAX_SHUTDOWN_MA = 0.15  # MAX7219 shutdown supply current, per chip (datasheet max 150 uA)
OLED_BASE_MA = 0.8  # SSD1306 module, display on, all pixels dark (controller and charge pump)
OLED_FULL_MA = 22.0  # SSD1306 module, all 8192 pixels lit at contrast 0xFF (module measurements)
OLED_OFF_MA = 0.01  # display off (sleep mode, datasheet 10 uA)
WS2812_IDLE_MA = 1.0  # per pixel, dark (WS2812B datasheet: ~1 mA quiescent)
WS2812_CHANNEL_MA = 20.0  # per colour channel at 255 (45 pixels white: 2.7 A, docs/building.md)
CHIP_IDLE_FRAME_MS = 0.68  # one idle frame on the chip: busy 14.5 % at a frame every 4.7 ms
CHIP_IDLE_SHARE = 0.145  # docs/figures.md, chip idle duty: awake and idle, 14-15 % busy (5 ms frames)
CHIP_BLANK_SHARE = 0.007  # docs/figures.md, chip idle duty: blanked, 0.7 % (50 ms lightsleep polls)
BATTERIES = (("3 x AA alkaline", 2000), ("1000 mAh LiPo", 900))  # usable mAh (AA at ~100 mA
# drains; the LiPo to the firmware's 3.4 V warning)
SHORT_MS = 30  # stretches below this are within the busy estimate's noise: charged an idle frame


def led_ma(lit, intensity):
    """MAX7219 current for ``lit`` LEDs at ``intensity`` (0-15): 1/8 scan, PWM (2I+1)/32."""
    return lit * ISEG_MA * (2 * intensity + 1) / 32 / 8


def oled_ma(lit_fraction, contrast, on=True):
    if not on:
        return OLED_OFF_MA
    return OLED_BASE_MA + OLED_FULL_MA * lit_fraction * contrast / 255


def observe(device, until, presses, step=100):
    """Run to ``until`` sampling every ``step`` ms: mean lit LEDs, LED intensity, OLED lit
    share, contrast, display on; and the busy share (short stretches charged an idle frame)."""
    from host_tools.simulator import keys as sim_keys

    from host_tools.simulator.screen import dice_state

    levels = sim_keys.levels(presses)
    first = len(device.stretches)
    t0 = device.now
    waits0 = device.waits
    samples = []
    while device.now < until:
        device.run_until(device.now + step, levels)
        chips = device.chain.chips
        lit = sum(sum(map(sum, chip.rows())) for chip in chips if not chip.shutdown)
        # the same dice with each held one drawn inverted (the look before the bar under a
        # held die, which lights fewer LEDs)
        inverted = lit
        for chip, (face, held, _animal) in zip(chips, dice_state(device)):
            if held and face > 0 and not chip.shutdown:
                inverted += (64 - 4 * face) - sum(map(sum, chip.rows()))  # a face's pips: 4 LEDs each
        pixels = device.oled_pixels()
        samples.append(
            (
                lit,
                chips[0].intensity,
                sum(map(sum, pixels)) / 8192.0,
                device.oled.contrast,
                device.oled.display_on,
                inverted,
            )
        )
    span = max(device.now - t0, 1)
    stretches = device.stretches[first:]
    long_ms = sum(b for _s, b in stretches if b >= SHORT_MS)
    short = (device.waits - waits0) - sum(1 for _s, b in stretches if b >= SHORT_MS)
    busy = min(1.0, (long_ms + short * CHIP_IDLE_FRAME_MS) / span)
    n = len(samples)
    return {
        "lit": sum(s[0] for s in samples) / n,
        "lit_inverted": sum(s[5] for s in samples) / n,
        "intensity": samples[-1][1],
        "oled": sum(s[2] for s in samples) / n,
        "contrast": samples[-1][3],
        "on": samples[-1][4],
        "busy": busy,
    }


def current(obs, idle_sleeps, blank=False):
    """(total mA, {part: mA}) from an observation; ``idle_sleeps``: the CPU sleeps in
    lightsleep when not busy (else it waits in WFE)."""
    if blank:
        cpu = CHIP_BLANK_SHARE * RUN_MA + (1 - CHIP_BLANK_SHARE) * SLEEP_MA
        leds = 5 * MAX_SHUTDOWN_MA
    else:
        cpu = obs["busy"] * RUN_MA + (1 - obs["busy"]) * (SLEEP_MA if idle_sleeps else WFE_MA)
        leds = MAX_QUIET_MA + led_ma(obs["lit"], obs["intensity"])
    oled = oled_ma(obs["oled"], obs["contrast"], obs["on"])
    parts = {"CPU": cpu, "dice": leds, "OLED": oled}
    return sum(parts.values()), parts


def budget_run(idle):
    """Observations of the four modes in one busy-mode game (``idle``: hw.idle on)."""
    from host_tools.simulator import headless as sim_headless
    from host_tools.simulator import busy
    from host_tools.benches import busy as busy_bench

    obs = {}
    with tempfile.TemporaryDirectory() as flash:
        device = SimDevice(
            seed=3,
            flash_dir=flash,
            tables=sim_headless.device_tables(),
            busy=busy.ratio(),
            extra=() if idle else ("idle=0",),
        )
        try:
            device.run_until(3000)
            obs["idle menu"] = observe(device, 13000, [])
            t = device.now + 100
            presses = []
            for _label, button, after in busy_bench.SCRIPT:  # a human turn and a computer's
                presses.append((t, t + sim_keys.PRESS_MS, button))
                t += sim_keys.PRESS_MS + after + 1500  # time to look at the dice
            obs["playing"] = observe(device, t, presses)
            device.run_until(device.now + 65000)  # a minute without a press: dimmed
            obs["dimmed"] = observe(device, device.now + 5000, [])
            device.run_until(device.now + 115000)  # three: blanked
            obs["blanked"] = observe(device, device.now + 10000, [], step=1000)
        finally:
            device.close()
    return obs


def budget():
    print(
        "power budget: datasheet currents x the firmware's duty in the simulator's busy mode (docs/power_and_input.md)"
    )
    runs = {
        "before (5 ms frames, WFE between)": budget_run(False),
        "after (idle frames in lightsleep)": budget_run(True),
    }
    hours = {}
    for label, obs in runs.items():
        print(label)
        idle_sleeps = label.startswith("after")
        for mode in ("playing", "idle menu", "dimmed", "blanked"):
            o = obs[mode]
            total, parts = current(o, idle_sleeps, blank=mode == "blanked")
            hours[(label, mode)] = total
            print(
                "  %-9s %6.1f mA = CPU %5.1f (busy %4.1f %%) + dice %5.1f (%4.1f LEDs lit, intensity %d) + "
                "OLED %4.1f (%2.0f %% lit, contrast 0x%02X%s)"
                % (
                    mode,
                    total,
                    parts["CPU"],
                    100 * (CHIP_BLANK_SHARE if mode == "blanked" else o["busy"]),
                    parts["dice"],
                    o["lit"],
                    o["intensity"],
                    parts["OLED"],
                    100 * o["oled"],
                    o["contrast"],
                    "" if o["on"] else ", off",
                )
            )
            print("            " + ", ".join("%s %.0f h" % (name, mah / total) for name, mah in BATTERIES))
    o = dict(runs["after (idle frames in lightsleep)"]["playing"])
    now, _parts = current(o, True)
    o["lit"] = o["lit_inverted"]
    then, _parts = current(o, True)
    print(
        "held dice: a lit bottom row (now) vs drawn inverted (before), playing, the same game: "
        "%.1f vs %.1f LEDs lit, %.1f vs %.1f mA; %s"
        % (
            runs["after (idle frames in lightsleep)"]["playing"]["lit"],
            o["lit"],
            now,
            then,
            ", ".join("%s %.1f vs %.1f h" % (name, mah / now, mah / then) for name, mah in BATTERIES),
        )
    )
    return hours
