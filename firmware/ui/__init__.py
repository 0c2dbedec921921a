"""The handheld's screens, and the screen ids the app's table (app.SCREENS) is indexed by.

A screen is one small unit: a tuple ``(draw, handle, tick)`` of plain functions kept
together in one module section (ui/screens.py, menu.py, turn_screen.py, scorecard.py,
coach_screens.py); ``handle`` or ``tick`` is None when the screen has none. They take the
app, which holds the state the screens share (the game, the cursor, the dice, timers).
A screen's own state (a menu line, whose card, a confirmation's figures) is module-level
in its module, set only by its way in (``menu.home``, ``scorecard.show_card(app)``,
``screens.show_summary(app, ...)``, ...), which the app or another screen calls.
Plain functions in a table, not classes: on the unix port a class per screen costs about
260 bytes more heap each (make bench: the game's heap).

- ``draw(app, fb)``: paint the whole OLED from the app's state (no allocation);
- ``handle(app, button, long)``: a button event (``button`` 0..9 as in drivers/buttons.py,
  ``long`` True for a long press); changes happen through the app's transitions and game
  actions (app.py), never by writing another screen's state;
- ``tick(app, now)``: once per frame (``now`` in ms): timers, animations (a computer's
  turn is played by the app's frame loop, seats.play, not by a screen).

To add a screen: docs/architecture.md, "How to add a screen".
"""

from micropython import const

SPLASH = const(0)
MENU_SCREEN = const(1)
ROLLOFF = const(2)
TURN = const(3)
CONFIRM_SCORE = const(4)  # the box, its points and the total it makes: OK scores
CARD = const(5)
END = const(6)
CONFIRM_QUIT = const(7)
HINT = const(8)
REVIEW = const(9)
SUMMARY = const(10)  # after a computer's turn: its dice, box and points (OK skips)
