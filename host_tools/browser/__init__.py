"""The web family of the host tools: the firmware in a browser on MicroPython's WebAssembly port (python -m host_tools web)."""
