"""Power saving and the battery: dim, then blank the OLED and dice after inactivity, sleep
in timed lightsleeps until a button is pressed, and watch VSYS for a low battery.

The app owns it (``app.power``) and runs ``Power.frame(app, now)`` in every frame that
runs no background work (app.py). Activity is a queued button event or a press in
progress, or the game moving by itself (``app.moving()``: a roll's tumble, the roll-off,
a computer's turn). After a minute (``_DIM_MS``) the OLED contrast and the LED brightness
drop; after three (``_BLANK_MS``) the save layer saves what waits (``before_sleep``), both
displays switch off and the loop sleeps in
``hw.lightsleep(_SLEEP_POLL_MS)`` steps, because an untimed lightsleep has no button wake
on rp2. The press that wakes (or un-dims) does nothing else: its event is dropped. Panels
keep their RAM while off, so waking needs no redraw. No allocation per frame.
"""

from micropython import const
import time

AWAKE = const(0)
DIM = const(1)
BLANK = const(2)

_DIM_MS = const(60000)
_BLANK_MS = const(180000)
_LOW_MV = const(3400)  # a Li-ion cell on VSYS has little left below 3.4 V under load
_RECOVER_MV = const(3550)  # hysteresis: warn again only after a charge
_BATTERY_EVERY_MS = const(10000)  # ADC reads are cheap but the figure moves slowly
_SLEEP_POLL_MS = const(50)  # a press is shorter than this x 2; 50 ms keeps the wake snappy
_OLED_BRIGHT = const(0xCF)  # the SSD1306 driver's own start-up contrast
_OLED_DIM = const(0x08)
_LEDS_DIM = const(1)
_N_BUTTONS = const(10)


class Power:
    def __init__(self, hw):
        self.hw = hw
        self.state = AWAKE
        self.last_active = hw.ticks_ms()
        self.next_battery = self.last_active
        self.mv = -1  # last VSYS reading; -1 when the board cannot measure
        self.low = False
        self.sleeps = 0  # how often the device blanked (tests, bench)

    def frame(self, app, now):
        """Returns True when this frame's button events must be dropped (a waking press)."""
        hw = self.hw
        if hw.battery_mv is not None and time.ticks_diff(now, self.next_battery) >= 0:
            self.next_battery = time.ticks_add(now, _BATTERY_EVERY_MS)
            mv = self.mv = hw.battery_mv()
            if mv < _LOW_MV and not self.low:
                self.low = True
                if app.session is not None:
                    app.session.battery_low(app, mv)  # saves and says so
            elif mv >= _RECOVER_MV:
                self.low = False
        # A press in progress counts too: a long press that begins just before the dim
        # is the player's, not the press that un-dims (that one is swallowed whole).
        if hw.buttons.pending() or hw.buttons.pressing():
            self.last_active = now
            if self.state != AWAKE:
                self.wake(app)
                return True
            return False
        if app.moving():
            self.last_active = now  # the game moves by itself: not idle
            return False
        idle = time.ticks_diff(now, self.last_active)
        if idle >= _BLANK_MS:
            self.sleep(app)
            return True
        if idle >= _DIM_MS and self.state == AWAKE:
            self.dim(app)
        return False

    def due_in(self, now):
        """Ms until this module's next timer: the battery's reading, the dim or the blank
        (a frame must run then; a press ends a sleep sooner)."""
        hw = self.hw
        idle = time.ticks_diff(now, self.last_active)
        ms = (_DIM_MS if self.state == AWAKE else _BLANK_MS) - idle
        if hw.battery_mv is not None:
            ms = min(ms, time.ticks_diff(self.next_battery, now))
        return ms

    def dim(self, app):
        self.state = DIM
        leds = app.settings.leds  # wake() restores it from the settings
        self.hw.oled.contrast(_OLED_DIM)
        self.hw.dice.brightness(_LEDS_DIM if leds > _LEDS_DIM else leds)

    def wake(self, app):
        hw = self.hw
        if self.state == BLANK:
            hw.oled.power(True)
            hw.dice.power(True)
        hw.oled.contrast(_OLED_BRIGHT)
        hw.dice.brightness(app.settings.leds)
        self.state = AWAKE
        self.last_active = hw.ticks_ms()
        app.dirty = True

    def sleep(self, app):
        """Blank, then lightsleep until a button goes down and up again; wake."""
        hw = self.hw
        if self.state == AWAKE:
            self.dim(app)
        if app.session is not None:
            app.session.before_sleep(app)
        self.state = BLANK
        self.sleeps += 1
        hw.oled.power(False)
        hw.dice.power(False)
        buttons = hw.buttons
        # A press between two polls still left its edges (a pin interrupt, which also ends
        # the lightsleep early on rp2): it wakes the device as a held button does.
        while not (buttons.edges_pending() or self._any_down()):
            hw.lightsleep(_SLEEP_POLL_MS)
        self.wake(app)  # light up at the press, not at the release
        while self._any_down():
            hw.lightsleep(_SLEEP_POLL_MS)
        buttons.clear(hw.ticks_ms())  # the waking press (its edges too) reports nothing
        self.last_active = hw.ticks_ms()

    def _any_down(self):
        down = self.hw.button_down
        for button in range(_N_BUTTONS):
            if down(button):
                return True
        return False
