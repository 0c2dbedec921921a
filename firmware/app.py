"""The handheld's application: the frame loop, the state the screens share, and the
transitions and game actions they call.

Data flows one way: button events -> the screen on show (its ``handle``) -> game actions
here (game.py) -> caches -> the screen's ``draw`` -> drivers. Each screen is one small
unit (ui/__init__.py: ``(draw, handle, tick)``, plain functions of the app)
in ui/screens.py, ui/menu.py, ui/turn_screen.py, ui/scorecard.py, ui/coach_screens.py; ``SCREENS``
below is their table, indexed by the screen ids. A screen's own state (a menu line, a
confirmation's figures, whose card) lives in its module, set by its way in
(``screens.show_summary(...)``, ...); the app holds what several screens share. The app
knows the game only through its documented API and the hardware only through the board's
hardware object.

The save layer (save_session.py) plugs in as ``app.session`` (None without one: tests,
probes); the contract between the two is written once, in docs/architecture.md ("The save
layer"). Power saving (power.py) is the app's: ``app.power``.

Advice (coach.py: hints, turn reviews) and the computer levels (seats.py) come from the
optional strategy table; without it the game plays on with the simple computer.

Frame loop: every 5 ms the buttons are polled, then the frame takes ONE of (``frame``):
the end of a roll's tumble, a part of a save, the presses waiting (the screen's
``handle``), a part of other background work (scheduler.py: the table's opening, a
computer's decision, the win meter...), the screen's timers (its ``tick``, a computer's
move). Animations run and the OLED / dice are redrawn (only when something changed) in
every frame. While nothing moves the loop sleeps until the next timer or a press. After
warm-up a frame allocates nothing (tests/firmware/test_ui_alloc.py measures it).
"""

from micropython import const
import gc
import time

from drivers.buttons import LONG
import coach as coach_module
import game as game_module
import lang
import power as power_module
import rules
import scheduler
import seats
from ui import coach_screens
from ui import draw
from ui import menu
from ui import scorecard
from ui import screens
from ui import turn_screen

# Screen ids, indexes into SCREENS (ui/__init__.py); part of the app's API (power.py, tests),
# re-exported: the screens that open them use ui's own.
from ui import SPLASH, MENU_SCREEN, ROLLOFF, TURN, CONFIRM_SCORE, CARD, END  # noqa: F401
from ui import CONFIRM_QUIT, HINT, REVIEW, SUMMARY  # noqa: F401

FRAME_MS = const(5)
_SPLASH_MS = const(1500)
_MENU_BY_MS = const(1400)
_TUMBLE_MS = const(400)
_TUMBLE_STEP_MS = const(50)
_ROLLOFF_SHOW_MS = const(1200)
_SUMMARY_MS = const(1500)  # what a computer kept and scored, before the next turn
_MAX_BOXES = const(13)  # the most boxes a card has (rules.N_BOXES); a ruleset says its own
_LIST_ROWS = const(6)
_KIND_MASK = const(0xF0)
_BUTTON_MASK = const(0x0F)
# Job ids (scheduler.py).
_BOOT_JOB = const(0)  # scheduler.BOOT
_END_JOB = const(3)  # scheduler.END
_OPEN_JOB = const(4)  # scheduler.OPEN
_PREPARE_JOB = const(5)  # scheduler.PREPARE
_METER_JOB = const(6)  # scheduler.METER
_DECIDE_JOB = const(7)  # scheduler.DECIDE
_COLLECT_JOB = const(8)  # scheduler.COLLECT

# The screens, indexed by the ids above: (draw, handle, tick) each (ui/__init__.py).
SCREENS = (
    screens.splash,
    menu.setup,
    screens.rolloff,
    turn_screen.turn,
    turn_screen.confirm_score,
    scorecard.card,
    screens.end,
    screens.confirm_quit,
    coach_screens.hint,
    coach_screens.review,
    screens.summary,
)
_DRAW = const(0)
_HANDLE = const(1)
_TICK = const(2)


class App:
    def __init__(self, hw, cfg):
        self.hw = hw
        self.fb = hw.oled
        self.settings = menu.Settings(cfg)
        # A challenge code (sim --challenge, the web page's link): the games started roll
        # its dice (game_challenge.py); anything but four letters A-Z is none.
        code = cfg.get("challenge")
        if type(code) is str:
            code = code.upper()
            if len(code) == 4 and "A" <= min(code) and max(code) <= "Z":
                self.settings.code = code
        self.session = None  # the save layer (docs/architecture.md): save_session.Session(hw).attach(app)
        self.jobs = scheduler.Scheduler()  # background work, a part a frame (frame)
        self.power = power_module.Power(hw)  # dim, blank and sleep; the battery
        self.screen = SPLASH
        self.running = True
        self.dirty = True
        self.dice_dirty = True
        self.game = None
        self.faces = [0, 0, 0, 0, 0]
        self.held = 0
        self.options = [-1] * _MAX_BOXES
        # Per seat: rules.totals() of its card (upper, upper bonus, lower, Yahtzee bonus,
        # grand total), refreshed after each score so the screens need not add up cards.
        self.breakdowns = [(0, 0, 0, 0, 0)] * 4
        self.win_chance = [0] * 4  # win_meter units per seat, valid when win_known
        self.win_known = False
        self.cursor = 0
        self.top = 0
        self.rolling = False
        self.tumble_until = 0
        self.tumble_next = 0
        self.timer_on = False
        self.timer_at = 0
        self.starter = -1
        self.tie = False
        self.coach = coach_module.Coach()  # hints, turn reviews, advisor levels (coach.py)
        self.note = ""  # one line shown on the roll-off screen and through round 1
        self.turn_msg = ""  # the turn screen's footer for a moment: why ROLL did nothing
        self.turn_msg_until = 0
        self.scratch_faces = [0, 0, 0, 0, 0]  # faces shown while tumbling or blinking
        self._steady = 0
        self._anim_state = 0x2545F491  # xorshift for the tumbling faces (not the dice source)
        self._pressed_once = False
        self.now = 0
        self.apply_settings()

    # ----------------------------------------------------------------- frame loop
    def run(self, frames=-1):
        """Run until ``running`` is cleared (or for ``frames`` frames, for tests)."""
        hw = self.hw
        jobs = self.jobs
        deadline = hw.ticks_ms()
        self.timer_at = deadline
        # The splash ends by _MENU_BY_MS after power-on (ticks_ms counts from there), not
        # _SPLASH_MS after the boot's own work: with its drawing the menu is up by 1.5 s.
        left = time.ticks_diff(_MENU_BY_MS, deadline)
        self.start_timer(deadline, left if 0 < left <= _SPLASH_MS else 0)
        while self.running and frames != 0:
            jobs.ran = -1
            self.frame(hw.ticks_ms())
            deadline = time.ticks_add(deadline, FRAME_MS)
            wait = time.ticks_diff(deadline, hw.ticks_ms())
            if wait > 0:
                idle = self._idle_ms(hw.ticks_ms()) if hw.idle is not None else 0
                if idle > wait:
                    hw.idle(idle)  # nothing moves: sleep until the next timer, a press ends it sooner
                    deadline = hw.ticks_ms()
                else:
                    hw.sleep_ms(wait)
            else:
                # Fell behind (an OLED refresh, a save): don't race to catch up, but yield,
                # so a frame's drawing and the next frame's work are two stretches, not one.
                hw.sleep_ms(0)
                deadline = hw.ticks_ms()
                # Long work leaves its garbage: collect it as the next frame's part, so the
                # heap's automatic collection does not land inside a later stretch. A
                # collection's own overrun leaves none: collecting again would never end.
                if jobs.ran != _COLLECT_JOB and not jobs.busy(_COLLECT_JOB):
                    jobs.add(_COLLECT_JOB, gc.collect)
            if frames > 0:
                frames -= 1

    def _idle_ms(self, now):
        """How long the loop may sleep now: 0 while something moves, else until the first
        timer that is set (the screen's, the turn's footer, power's: power.py)."""
        if not self.still():
            return 0
        ms = self.power.due_in(now)
        if self.timer_on:
            ms = min(ms, time.ticks_diff(self.timer_at, now))
        if self.turn_msg:
            ms = min(ms, time.ticks_diff(self.turn_msg_until, now))
        return ms if ms > 0 else 0

    def still(self):
        """Nothing on screen moves by itself: no animation, sound or background work (the
        hint's dice blink), no redraw waiting; a timer may be set (``_idle_ms``)."""
        buzzer = self.hw.buzzer
        return not (
            self.rolling
            or self.jobs.busy()
            or self.dirty
            or self.dice_dirty
            or self.screen == HINT
            or (buzzer is not None and buzzer.busy)
            or self.hw.buttons.settling()
        )

    def frame(self, now):
        """One frame: the dice's animation, then ONE of, first come first: the end of a
        roll's tumble (the frame draws the roll), a part of a save, the presses waiting,
        a part of other work, the screen's timers; then the redraw. So a part of work
        never shares a stretch with a press's redraw or a timer's move, and the last
        action's save is on flash before the next press is taken (scheduler.py)."""
        self.now = now
        hw = self.hw
        buttons = hw.buttons
        buttons.poll(now)
        jobs = self.jobs
        session = self.session
        presses = buttons.pending() and not jobs.busy(jobs.hold)
        if self.rolling and self._tumble(now):
            pass  # the roll is shown: this frame draws it, the rest waits a frame
        elif jobs.busy(_BOOT_JOB, _END_JOB) or (not presses and jobs.busy()):
            jobs.step()  # saves first: a press never writes the last one in its own stretch
        elif self.power.frame(self, now):
            buttons.clear()  # the press that woke the device does nothing else
        elif presses:
            event = buttons.get()
            while event >= 0:
                if not self._pressed_once:
                    self._pressed_once = True
                    hw.dice_source.first_press(time.ticks_us())
                if session is None or not session.asks:
                    self.handle(event)
                else:
                    # The screens that show the save layer's asks: imported only while it
                    # has some (the module releases itself once they are answered).
                    __import__("ui.records_screens", None, None, ("*",)).handle(self, event)
                if jobs.busy(jobs.hold):
                    break  # an answer began work that keeps the presses waiting (Continue)
                event = buttons.get()
        else:  # the screen's timers, and a computer's turn: played here, the screen draws it
            tick = SCREENS[self.screen][_TICK]
            if tick is not None:
                tick(self, now)
            if self.screen == TURN and self.game is not None and self.computer_turn():
                seats.play(self, now)
        if hw.buzzer is not None:
            hw.buzzer.update(now)
        if session is not None and session.news():
            self.dirty = True
        if self.dirty:
            self.dirty = False
            SCREENS[self.screen][_DRAW](self, self.fb)
            if session is not None and session.asks:
                __import__("ui.records_screens", None, None, ("*",)).paint(self, self.fb)
            elif self.screen == MENU_SCREEN and session is not None:
                draw.battery(self.fb, self.power.mv)
            self.fb.show()
        if self.dice_dirty and not self.rolling:
            self.dice_dirty = False
            hw.dice.show(self.faces, self.held)

    def handle(self, event):
        """A button event for the screen on show."""
        handle = SCREENS[self.screen][_HANDLE]
        if handle is not None:
            handle(self, event & _BUTTON_MASK, event & _KIND_MASK == LONG)

    def start_timer(self, now, ms):
        self.timer_on = True
        self.timer_at = time.ticks_add(now, ms)

    def timer_due(self, now):
        if self.timer_on and time.ticks_diff(now, self.timer_at) >= 0:
            self.timer_on = False
            return True
        return False

    def changed(self):
        if self.session is not None:
            self.session.on_change(self)

    def beep(self, freq, ms):
        buzzer = self.hw.buzzer
        if buzzer is not None and self.settings.sound:
            buzzer.tone(freq, ms)

    # ----------------------------------------------------------------- transitions
    def show(self, screen):
        self.screen = screen
        self.dirty = True
        if screen == MENU_SCREEN:
            # Out of a game: its work dropped (a table not open yet, a turn not prepared)
            # and its strategy table's RAM back for the records pages.
            self.jobs.cancel(_OPEN_JOB, _DECIDE_JOB)
            self.coach.close()
            faces = self.faces  # no game on the dice in the menu (quit, or after the end)
            for i in range(5):
                faces[i] = 0
            self.held = 0
            self.dice_dirty = True
            menu.home(self.settings)

    def apply_settings(self):
        hw = self.hw
        hw.dice.brightness(self.settings.leds)
        if hw.buzzer is not None:
            hw.buzzer.muted = not self.settings.sound

    def coach_mode(self):
        """The coach mode for this turn: COACH_OFF without a table or on a computer's turn.
        Not off: short MENU gives a hint; COACH_TURN: the turn is priced for a review. The
        coach is about to be asked: the turn's advisor is prepared now if its part has
        not come yet (a press right after the turn began)."""
        if self.coach.adv is None or self.computer_turn():
            return menu.COACH_OFF
        self.jobs.finish(_PREPARE_JOB)
        if self.coach.adv is None:
            return menu.COACH_OFF  # the table failed a check as it was prepared
        return self.settings.coach

    # ----------------------------------------------------------------- game actions
    def new_game(self):
        settings = self.settings
        game = game_module.Game(settings.ruleset(), settings.player_list(), self.hw.dice_source, settings.code)
        solo = game.phase == game_module.TURN  # nobody to roll off against
        self._begin(game)
        if not solo:
            self._roll_off()  # before the save: one save, one flash write, for both
        self.changed()
        if solo:
            self.start_turn()  # prepared once the table is open (_opening)
            return
        self.show(ROLLOFF)

    def resume(self, game):
        """Continue ``game`` (e.g. rebuilt by the save layer) on the screen its phase needs."""
        # The table opens a part a frame as at Start game (_opening): the turn screen
        # first, presses held till it is open; an ended game needs none.
        self._begin(game)
        if game.phase == game_module.OVER:
            self.finish()
        elif game.phase == game_module.ROLLOFF:
            self.show(ROLLOFF)
            self.rolloff_round()
        else:
            self.start_turn()
            if game.rolls > 0:
                game.options(self.options)
                self.cursor = self.best_box()
                self.scroll_cursor()

    def _begin(self, game):
        """Take ``game`` on: its box names in the chosen language (lang.card), animals on
        the dice for the Zoo card, its totals, and the strategy table when the coach or an
        advisor level needs it (its RAM is held while a game runs; without one, say so
        through round 1: ``note``). The table opens a part a frame after the first screen
        shows (job OPEN, ``_opening``); the roll-off's timers wait for it, and a game whose
        first screen is a turn keeps the presses waiting until it is open. A game that is
        over needs none."""
        self.game = game
        lang.card(game.rules)
        self.hw.dice.animals(game.rules.faces is not None)  # the Zoo card's pictures
        self.starter = -1
        self.tie = False
        wanted = self.settings.coach != menu.COACH_OFF
        for player in game.players:
            if seats.computer(player.kind) and player.kind in seats.KINDS:
                wanted = True  # a computer level that plays from the table
        self.note = ""
        self.win_known = False
        self._totals()  # a resumed game's totals on its first screen; the meter once open
        self.jobs.cancel(_OPEN_JOB)
        if wanted and game.phase != game_module.OVER:
            self.jobs.add(_OPEN_JOB, self._opening(game), hold=game.phase == game_module.TURN)
        else:
            self.coach.close()

    def _opening(self, game):
        """Job OPEN: the strategy table's opening (the longest work the game does, spread
        over frames while the roll-off tumbles), then in a game of several players the win
        meter and the win level its first turn needs, then that turn's advisor when its
        screen is on show; a part each."""
        coach = self.coach
        yield from coach.opening(game.rules)
        if coach.adv is None:
            self.note = coach.problem  # why there are no hints, through round 1
            self.dirty = True
        if coach.adv is None or len(game.players) < 2:
            self.refresh_totals()  # solo, or no table: no meter to wait for
        else:
            yield
            self._refresh_meter()
            yield
            coach.win_level()
        if coach.adv is not None and self.screen == TURN:
            yield
            self._prepare_turn()

    def rolloff_round(self):
        self._roll_off()
        self.changed()

    def _roll_off(self):
        rolled = self.game.rolloff()
        for seat in range(5):
            self.faces[seat] = 0
        for seat, face in rolled:
            self.faces[seat] = face
        self.held = 0
        self._start_tumble(0)
        self.tie = self.game.phase != game_module.TURN
        self.start_timer(self.now, _ROLLOFF_SHOW_MS)
        self.beep(660, 40)

    def start_turn(self, defer=False):
        """The turn of the player on turn; ``defer``: its advisor is prepared as a part of
        its own after the turn screen shows (job PREPARE), before a computer decides or
        the coach is asked (coach_mode)."""
        self.cursor = 0
        self.top = 0
        seats.new_turn()
        jobs = self.jobs
        jobs.cancel(_PREPARE_JOB)
        jobs.cancel(_DECIDE_JOB)
        if defer and self.coach.adv is not None:
            jobs.add(_PREPARE_JOB, self._prepare_turn)
        else:
            self._prepare_turn()
        self.sync_dice()
        self.show(TURN)
        if self.computer_turn():
            self.start_timer(self.now, seats.CPU_STEP_MS)
        else:
            self.timer_on = False

    def _prepare_turn(self):
        game = self.game
        if self.coach.adv is not None and not self.coach.start_turn(game.players[game.current].card, game):
            self.note = self.coach.problem  # the table failed a check: played without from here
            self.dirty = True

    def roll(self):
        game = self.game
        if game.rolls > 0 and self.coach_mode() == menu.COACH_TURN:
            self.coach.price_hold(game.dice, 3 - game.rolls, game.held)
        game.roll()
        game.options(self.options)
        self.cursor = self.best_box()
        self.scroll_cursor()
        self.sync_dice()
        self._start_tumble(game.held)
        self.dirty = True
        self.beep(440, 30)
        self.changed()

    def score(self, box):
        game = self.game
        review = self.coach_mode() == menu.COACH_TURN
        computer = self.computer_turn()
        if review:
            self.coach.price_box(game.dice, 3 - game.rolls, box)
        seat = game.current
        upper_before = self.breakdowns[seat][1]
        points, bonus = game.score(box, not computer)  # a human's can be taken back (undo)
        self.jobs.cancel(_DECIDE_JOB)  # a decision for the dice just scored: moot
        self.refresh_totals(later=True)
        self.beep(880, 60)
        self.changed()
        if review:
            coach_screens.show_review(self, seat)  # OK goes on (next_turn)
        elif computer:
            # The dice stay lit as scored; OK goes on, or the timer when nobody plays
            # along (a human at the table might look away).
            screens.show_summary(self, seat, box, points, bonus, self.breakdowns[seat][1] - upper_before)
            if self.humans():
                self.timer_on = False  # not the computer's pace: OK
            else:
                self.start_timer(self.now, _SUMMARY_MS)
        else:
            self.next_turn()

    def undo(self):
        """Take the last score back (game.undo; UP on the screens after it): its player's
        turn again on the same dice, holds and roll count, the cursor on the box it went
        in, the coach's review and the win meter as they were before it."""
        game = self.game
        box = game.last[1]
        game.undo()
        self.start_turn()
        self.coach.unprice_box()  # the turn's review: what it was before that box
        game.options(self.options)
        self.point_at(box)
        self.refresh_totals(later=True)
        self.changed()

    def keep_score(self):
        """The last score stands (OK on a screen that could take it back): a computer on
        turn may roll, a game that is over counts in the records."""
        self.game.last = None
        self.changed()

    def humans(self):
        """How many seats a human plays."""
        n = 0
        for player in self.game.players:
            if not seats.computer(player.kind):
                n += 1
        return n

    def next_turn(self):
        """After a score (and its review or summary): the next turn, or the end screen."""
        if self.game.phase == game_module.OVER:
            self.finish()
        else:
            self.start_turn(defer=True)

    def finish(self):
        # The game is over: the strategy code makes room for the records pages and the
        # high-score entry, which load next.
        self.coach.close()
        self.jobs.cancel(_OPEN_JOB, _DECIDE_JOB)  # a game's work: no chances after the last score
        self.sync_dice()
        self.timer_on = False
        if self.game.code is not None:  # the result, for the web page's line to share (console)
            print("challenge", self.game.code, self.game.total(0))
        screens.show_end(self)

    def refresh_totals(self, later=False):
        """Every seat's totals; the win meter now, or with ``later`` as a part of its own
        (job METER), kept out of the score's redraw."""
        game = self._totals()
        self.jobs.cancel(_METER_JOB)
        if later and len(game.players) > 1 and self.coach.adv is not None:
            self.win_known = False  # no chance shown until it is the one after this score
            self.jobs.add(_METER_JOB, self._refresh_meter)
        else:
            self._refresh_meter()

    def _totals(self):
        game = self.game
        for seat in range(len(game.players)):
            self.breakdowns[seat] = rules.totals(game.rules, game.players[seat].card)
        return game

    def _refresh_meter(self):
        # The win meter (coach.meter): every seat's chance to win after this turn, shown
        # in the card view's header and the turn screen's opponents' line (ui/scorecard.py);
        # False without the tables or solo.
        self.win_known = self.coach.meter(self.game, self.breakdowns, self.win_chance)
        if self.win_known:
            self.dirty = True  # the chances on the screen

    def best_box(self):
        """Default cursor after a roll: the legal box with the most points (first on ties)."""
        best = -1
        options = self.options
        for box in range(self.game.rules.n_boxes):
            if options[box] >= 0 and (best < 0 or options[box] > options[best]):
                best = box
        return best

    def move_cursor(self, step):
        box = self.cursor
        n = self.game.rules.n_boxes
        for _ in range(n):
            box = (box + step) % n
            if self.options[box] >= 0:
                break
        self.cursor = box
        self.scroll_cursor()
        self.dirty = True

    def point_at(self, box):
        """The turn screen's cursor on ``box`` (a computer shows the box it scores next)."""
        self.cursor = box
        self.scroll_cursor()
        self.dirty = True

    def scroll_cursor(self):
        if self.cursor < self.top + 1:
            self.top = self.cursor - 1 if self.cursor > 0 else 0
        elif self.cursor > self.top + _LIST_ROWS - 2:
            self.top = self.cursor - _LIST_ROWS + 2
        last_top = self.game.rules.n_boxes - _LIST_ROWS
        if self.top > last_top:
            self.top = last_top

    def set_holds(self, mask):
        """Hold exactly the dice in ``mask`` (a hint taken, a computer's choice)."""
        self.game.set_held(mask)
        self.sync_dice()
        self.changed()

    def sync_dice(self):
        game = self.game
        dice = game.dice
        for i in range(5):
            self.faces[i] = dice[i]
        self.held = game.held
        self.dice_dirty = True
        self.dirty = True

    def computer_turn(self):
        """Whether the player on turn is a computer (from the game, so a resumed game works)."""
        game = self.game
        return seats.computer(game.players[game.current].kind)

    def ended(self):
        """The save layer is done with the end of a game (high scores entered): the menu."""
        self.show(MENU_SCREEN)

    def in_menu(self):
        """The menu is on show: the save layer keeps the set-up when it changes there."""
        return self.screen == MENU_SCREEN

    def moving(self):
        """The game moves by itself (a roll's tumble, the roll-off, a computer's turn): for
        power.py, which counts that as activity."""
        return (
            self.rolling
            or self.screen == ROLLOFF
            or (self.screen == TURN and self.game is not None and self.computer_turn() and self.game.last is None)
        )

    # ----------------------------------------------------------------- dice animation
    def _start_tumble(self, steady_mask):
        self.rolling = True
        self._steady = steady_mask
        self.tumble_until = time.ticks_add(self.now, _TUMBLE_MS)
        self.tumble_next = self.now

    def _tumble(self, now):
        """Random faces on the dice that are rolling; the real faces when it ends (True)."""
        if time.ticks_diff(now, self.tumble_until) >= 0:
            self.rolling = False
            self.dice_dirty = True  # the real faces (roll-off faces, or the game's dice)
            self.dirty = True
            return True
        if time.ticks_diff(now, self.tumble_next) < 0:
            return False
        self.tumble_next = time.ticks_add(now, _TUMBLE_STEP_MS)
        state = self._anim_state
        faces = self.scratch_faces
        for i in range(5):
            state ^= (state << 13) & 0x3FFFFFFF
            state ^= state >> 17
            state ^= (state << 5) & 0x3FFFFFFF
            if self._steady & (1 << i) or (self.screen == ROLLOFF and self.faces[i] == 0):
                faces[i] = self.faces[i]
            else:
                faces[i] = state % 6 + 1
        self._anim_state = state
        self.hw.dice.show(faces, self._steady)
        return False
