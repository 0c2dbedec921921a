"""A fresh checkout without copying one: a folder of links to this checkout's sources and
no build/, for tests that run a command as a new clone would (nothing built before).

The host tools find their checkout from their own path without resolving links, so a
command run there (``python -m host_tools ...`` with the folder as working directory)
reads and writes that folder's build/, which starts missing: whatever a command builds
shows up there.
"""

import os

import host_tools

# What a clone holds beside the sources' folders; .venv, .git and build/ stay out.
SOURCES = (
    "boards",
    "docs",
    "firmware",
    "host_tools",
    "tests",
    "Makefile",
    "README.md",
    "pyproject.toml",
    "requirements.txt",
    ".gitignore",
)


def fresh_checkout(folder):
    """Make ``folder`` a fresh checkout (links to the sources) and return its path."""
    os.makedirs(folder, exist_ok=True)
    for name in SOURCES:
        os.symlink(os.path.join(host_tools.REPO, name), os.path.join(folder, name))
    return folder


def outside_make():
    """This environment without an outer make's variables: CI runs pytest under `make
    test`, and a nested make would print "Entering directory" lines around its output."""
    env = dict(os.environ)
    for name in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "MAKEOVERRIDES"):
        env.pop(name, None)
    return env
