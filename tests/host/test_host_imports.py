"""The host tools' import picture: no circles, and packages never import commands.

A command is ``host_tools/<command>.py`` (options, messages, exit status); its work lives
in a package (``host_tools/flashing/``, ``simulator/``, ``solver/`` ...). Every import is
read from the source (module level and inside functions alike, by an AST scan), so an
import hidden in a function to dodge a circle still counts.
"""

import ast
import os

import host_tools
from host_tools.__main__ import COMMANDS

ROOT = os.path.join(host_tools.REPO, "host_tools")


def module_files():
    """``{dotted module name: path}`` of every host_tools source file."""
    found = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in ("node_modules", "__pycache__"))
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                parts = os.path.relpath(path, host_tools.REPO)[:-3].split(os.sep)
                if parts[-1] == "__init__":
                    parts.pop()
                found[".".join(parts)] = path
    return found


def imported(tree, name, is_package, known):
    """The host_tools modules that the module ``name`` imports anywhere in ``tree``."""
    package = name if is_package else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import mod`` imports pkg.mod when that is a module, else pkg
            targets = [base + "." + alias.name if base + "." + alias.name in known else base for alias in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                out.add(target)
    return out


def import_graph():
    files = module_files()
    graph = {}
    for name, path in files.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        graph[name] = imported(tree, name, path.endswith("__init__.py"), files)
    return graph


def circles(graph):
    """The strongly connected groups of more than one module (Tarjan), each sorted."""
    index, low, stack, on_stack, groups = {}, {}, [], set(), []

    def visit(node):
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(groups)


def command_modules():
    return {"host_tools." + name.replace("-", "_") for name in COMMANDS}


def test_the_scan_sees_the_host_tools_and_their_imports():
    graph = import_graph()
    assert command_modules() <= set(graph)
    assert "host_tools.flashing.device" in graph
    assert "host_tools.simulator.golden" in graph
    # function-level imports count: sim imports the golden module inside main()
    assert "host_tools.simulator.golden" in graph["host_tools.sim"]


def test_the_scan_finds_a_circle_and_a_package_importing_a_command():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert circles(graph) == [["a", "b", "c"]]
    source = "def f():\n    from host_tools import sim\n    from . import keys\n"
    known = {
        "host_tools",
        "host_tools.sim",
        "host_tools.simulator",
        "host_tools.simulator.keys",
        "host_tools.simulator.x",
    }
    assert imported(ast.parse(source), "host_tools.simulator.x", False, known) == {
        "host_tools.sim",
        "host_tools.simulator.keys",
    }


def test_no_import_circle_among_host_tools_modules():
    found = circles(import_graph())
    assert found == [], "import circles: %s" % "; ".join(" <-> ".join(group) for group in found)


def test_no_package_module_imports_a_command():
    graph = import_graph()
    commands = command_modules()
    # __main__ dispatches to the commands by name; everything else that is not a command
    # (a package's module, host_tools/__init__.py, records_json.py) is shared code
    bad = sorted(
        "%s imports %s" % (name, target)
        for name, targets in graph.items()
        if name not in commands | {"host_tools.__main__"}
        for target in sorted(targets & commands)
    )
    assert bad == [], "package modules import commands (move the shared code into a package): %s" % "; ".join(bad)
