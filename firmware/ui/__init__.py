"""The handheld's screens (drawing) and menu model; firmware/app.py runs the state machine."""
