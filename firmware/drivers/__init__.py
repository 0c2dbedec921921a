"""Device drivers: one class per controller, each handed a ready bus by the board file.

Nothing here touches hardware at import time; see docs/architecture.md ("Hardware object").
"""
