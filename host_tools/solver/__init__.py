"""The optimal-strategy solver behind ``solve`` and ``advise``: ``core`` (the dynamic
programme over turn-start states, numpy), ``table`` (the device table's byte format),
``cache`` (tables built once per ruleset under build/) and ``simulate`` (games played by
the firmware's computer levels, for calibration)."""
