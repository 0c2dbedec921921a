"""The optimal-strategy solver behind ``solve`` and ``advise``: ``core`` (the dynamic
programme over turn-start states, numpy), ``table`` (the device table's byte format),
``cache`` (tables built once per ruleset under build/), ``files`` (the tables the
commands keep in build/: built when missing, opened checked), ``advice`` (``advise``'s
answers: the best move, the chances to win, the options ranked to win) and ``simulate``
(games played by the firmware's computer levels, for calibration)."""
