"""An in-memory filesystem with power cuts and a capacity, for the save cases (no tests).

``FakeFs`` counts every state-changing step (opening for write, each byte written, flush,
close, rename, remove, mkdir); when the step numbered ``cut_at`` comes the power goes:
``PowerCut`` is raised (not an OSError: the CPU stops, nothing catches it) and the files
keep exactly what was done before. ``reboot()`` is the next power-up. ``capacity`` makes
it a small disk that answers ENOSPC like littlefs. A module of its own, so a case file
can import it without compiling the storage cases inside MicroPython's heap.
"""


class PowerCut(Exception):
    """The power went; raised at the cut step and at every step after it."""


class _FakeFile:
    def __init__(self, fs, path, writing):
        self.fs = fs
        self.path = path
        self.writing = writing
        self.pos = 0

    def write(self, data):
        fs = self.fs
        for b in bytes(data):
            if fs.capacity is not None and fs.used() >= fs.capacity:
                raise OSError(28)
            fs.step()
            fs.files[self.path].append(b)
        return len(data)

    def read(self, n=-1):
        data = self.fs.files[self.path]
        end = len(data) if n < 0 else min(len(data), self.pos + n)
        chunk = bytes(data[self.pos : end])
        self.pos = end
        return chunk

    def flush(self):
        if self.writing:
            self.fs.step()

    def close(self):
        if self.writing:
            self.fs.step()


class FakeFs:
    def __init__(self, files=None, dirs=None):
        self.files = files if files is not None else {}
        self.dirs = dirs if dirs is not None else [""]
        self.cut_at = -1
        self.steps = 0
        self.capacity = None
        self.dead = False

    def step(self):
        if self.dead or self.steps == self.cut_at:
            self.dead = True
            raise PowerCut()
        self.steps += 1

    def used(self):
        return sum(len(data) for data in self.files.values())

    def reboot(self):
        """The same files, powered again (what a cut left behind is all there is)."""
        files = {}
        for path in self.files:
            files[path] = bytearray(self.files[path])
        return FakeFs(files, list(self.dirs))

    def _folder(self, path):
        return path[: path.rfind("/")] if "/" in path else ""

    def _check_folder(self, path):
        folder = self._folder(path)
        if folder in self.files:
            raise OSError(20)  # ENOTDIR: the folder is a file
        if folder not in self.dirs:
            raise OSError(2)

    def open(self, path, mode):
        self._check_folder(path)
        if path in self.dirs:
            raise OSError(21)  # EISDIR
        if "w" in mode:
            self.step()
            self.files[path] = bytearray()
            return _FakeFile(self, path, True)
        if path not in self.files:
            raise OSError(2)
        return _FakeFile(self, path, False)

    def rename(self, old, new):
        self._check_folder(new)
        if new in self.dirs:
            raise OSError(21)  # a file or folder cannot replace a folder
        if old in self.dirs:  # a folder moves with everything in it
            self.step()
            self.dirs = [new + d[len(old) :] if d == old or d.startswith(old + "/") else d for d in self.dirs]
            for path in [p for p in self.files if p.startswith(old + "/")]:
                self.files[new + path[len(old) :]] = self.files.pop(path)
            return
        if old not in self.files:
            raise OSError(2)
        self.step()
        self.files[new] = self.files.pop(old)

    def remove(self, path):
        if path in self.dirs:
            raise OSError(21)
        if path not in self.files:
            raise OSError(2)
        self.step()
        del self.files[path]

    def mkdir(self, path):
        if path in self.dirs or path in self.files:
            raise OSError(17)
        self._check_folder(path)
        self.step()
        self.dirs.append(path)

    def stat(self, path):
        """Only the mode matters to the store: 0x4000 a folder, 0x8000 a file."""
        if path in self.dirs:
            return (0x4000, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        if path in self.files:
            return (0x8000, 0, 0, 0, 0, 0, 0, 0, 0, len(self.files[path]))
        raise OSError(2)
