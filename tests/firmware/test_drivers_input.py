"""Buttons and buzzer run inside MicroPython with a fake clock (no real time passes).

Each button scenario is a list of (ms, button, pressed) edges; the MicroPython side polls
every 5 ms, drains the queue where the scenario says so and prints the events it got as
(poll time, event) pairs, which pytest checks.
"""

import ast

import pytest

from helpers.drivers_run import run_on_micropython

SIM = """
from drivers.buttons import Buttons, NO_EVENT
from time import ticks_add

def sim(name, edges, end, start=0, drain=True, active=0, queue_size=16, poll_ms=5, at=None):
    pins = [InputPin(1 - active) for _ in range(10)]
    buttons = Buttons(pins, active=active, queue_size=queue_size)
    got = []
    notes = []
    t = 0
    while t <= end:
        for when, button, pressed in edges:
            if when == t:
                pins[button].level = active if pressed else 1 - active
        buttons.poll(ticks_add(start, t))
        if at is not None and t in at:
            notes.append((t, at[t](buttons)))
        if drain:
            event = buttons.get()
            while event != NO_EVENT:
                got.append((t, event))
                event = buttons.get()
        t += poll_ms
    event = buttons.get()
    while event != NO_EVENT:
        got.append((end, event))
        event = buttons.get()
    print("SCEN", name, repr(got), repr(notes), buttons.dropped)
"""

SCENARIOS = """
ROLL, OK, MENU = 5, 8, 9
sim("tap", [(100, ROLL, 1), (200, ROLL, 0)], 400)
bounce = [(100, OK, 1), (105, OK, 0), (110, OK, 1), (115, OK, 0), (120, OK, 1),
          (300, OK, 0), (305, OK, 1), (310, OK, 0)]
sim("bounce", bounce, 500)
sim("glitch", [(100, OK, 1), (115, OK, 0)], 400)
sim("long", [(100, MENU, 1), (1500, MENU, 0)], 1800, at={690: lambda b: b.pressed(MENU), 1800: lambda b: b.pressed(MENU)})
sim("long_glitch", [(100, MENU, 1), (400, MENU, 0), (410, MENU, 1), (1000, MENU, 0)], 1200)
sim("latched", [(100, 0, 1), (150, 0, 0), (200, 1, 1), (250, 1, 0), (300, 0, 1), (350, 0, 0)], 500, drain=False)
sim("mash", [(100, b, 1) for b in range(10)] + [(200, b, 0) for b in range(10)], 400)
sim("overflow", [(100 + 100 * i, i, 1) for i in range(10)] + [(150 + 100 * i, i, 0) for i in range(10)],
    1200, drain=False, queue_size=4)
sim("power_on", [(0, ROLL, 1), (2000, ROLL, 0)], 2200,
    at={15: lambda b: b.pressed(ROLL), 20: lambda b: (b.pressed(ROLL), b.clear())[0]})
sim("wrap", [(100, ROLL, 1), (800, ROLL, 0), (1000, OK, 1), (1100, OK, 0)], 1300, start=(1 << 30) - 400)
sim("active_high", [(100, ROLL, 1), (200, ROLL, 0)], 400, active=1)
sim("many", [(100 + 60 * i, i % 10, 1) for i in range(40)] + [(130 + 60 * i, i % 10, 0) for i in range(40)],
    2600, drain=False, queue_size=4, at={t: lambda b: b.get() for t in range(160, 2560, 60)})
"""


@pytest.fixture(scope="module")
def scenarios():
    lines = run_on_micropython(SIM + SCENARIOS)
    found = {}
    for line in lines:
        if line.startswith("SCEN "):
            _tag, name, rest = line.split(" ", 2)
            events, notes, dropped = rest.rsplit(" ", 1)[0], None, int(rest.rsplit(" ", 1)[1])
            events, notes = events.split("] [")
            found[name] = (ast.literal_eval(events + "]"), ast.literal_eval("[" + notes), dropped)
    return found


ROLL, OK, MENU, LONG = 5, 8, 9, 0x10


def test_tap_gives_one_short_event_after_release_is_stable(scenarios):
    events, _notes, _dropped = scenarios["tap"]
    assert events == [(220, ROLL)]  # released at 200, stable for 18 ms: the 220 ms poll


def test_bouncing_contacts_give_one_event(scenarios):
    assert scenarios["bounce"][0] == [(330, OK)]


def test_a_glitch_shorter_than_the_debounce_time_is_ignored(scenarios):
    assert scenarios["glitch"][0] == []


def test_long_press_fires_once_at_the_threshold_and_nothing_on_release(scenarios):
    events, notes, _dropped = scenarios["long"]
    assert events == [(700, MENU | LONG)]  # pressed at 100, threshold 600 ms
    assert notes == [(690, True), (1800, False)]


def test_a_glitch_inside_a_long_hold_does_not_restart_it(scenarios):
    assert scenarios["long_glitch"][0] == [(700, MENU | LONG)]


def test_taps_between_frames_are_latched_in_order(scenarios):
    events, _notes, _dropped = scenarios["latched"]
    assert [event for _t, event in events] == [0, 1, 0]


def test_mashing_every_button_gives_every_event(scenarios):
    events, _notes, dropped = scenarios["mash"]
    assert events == [(220, b) for b in range(10)]
    assert dropped == 0


def test_overflow_keeps_the_oldest_and_counts_the_dropped(scenarios):
    events, _notes, dropped = scenarios["overflow"]
    assert [event for _t, event in events] == [0, 1, 2, 3]
    assert dropped == 6


def test_button_held_at_power_on_is_seen_and_clear_swallows_its_release(scenarios):
    events, notes, _dropped = scenarios["power_on"]
    assert notes == [(15, False), (20, True)]  # debounced: pressed only after 18 ms
    assert events == []  # clear() at 20 ms: no LONG, no SHORT for that press


def test_ticks_wrap_around_does_not_break_timing(scenarios):
    assert scenarios["wrap"][0] == [(700, ROLL | LONG), (1120, OK)]


def test_active_high_buttons(scenarios):
    assert scenarios["active_high"][0] == [(220, ROLL)]


BUZZER = """
from drivers.buzzer import Buzzer
from time import ticks_add
now = [(1 << 30) - 60]  # starts just before the ticks wrap
def at(ms):
    now[0] = ticks_add((1 << 30) - 60, ms)
    print("T", ms)
    return now[0]
buzzer = Buzzer(RecordingPWM(), clock=lambda: now[0])
at(0)
buzzer.tone(440, 100)
for ms in (50, 99, 100, 101):
    buzzer.update(at(ms))
print("BUSY", buzzer.busy)
buzzer.muted = True
at(200)
buzzer.tone(880, 50)
buzzer.update(at(260))
buzzer.muted = False
at(300)
buzzer.tone(0, 40)
print("BUSY", buzzer.busy)
buzzer.update(at(345))
print("BUSY", buzzer.busy)
try:
    buzzer.tone(5, 10)
except ValueError as exc:
    print("ERR", exc)
"""


def test_buzzer_timing_mute_and_rests():
    lines = run_on_micropython(BUZZER)
    assert lines == [
        "PWM duty 0",  # idle at construction
        "T 0",
        "PWM freq 440",
        "PWM duty 32768",
        "T 50",
        "T 99",
        "T 100",
        "PWM duty 0",
        "T 101",
        "BUSY False",
        "T 200",
        "PWM duty 0",  # muted: no sound at all
        "T 260",
        "PWM duty 0",
        "T 300",
        "PWM duty 0",
        "BUSY True",  # a rest is silent but takes its time
        "T 345",
        "PWM duty 0",
        "BUSY False",
        "ERR tone frequency must be 0 or 20..20000 Hz",
    ]


def test_ring_buffer_wraps_many_times_without_losing_order(scenarios):
    events, notes, dropped = scenarios["many"]
    # one event queued and one read every 60 ms: the 5-slot ring wraps eight times
    assert [event for _t, event in notes] == [i % 10 for i in range(40)]
    assert dropped == 0
    assert events == []
