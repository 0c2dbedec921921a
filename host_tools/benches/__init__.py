"""The figures ``make bench`` prints: one module per subject, each with a ``run()``."""
