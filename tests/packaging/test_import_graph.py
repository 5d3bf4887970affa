"""No import circle anywhere in the house (issue 44): drawn from every `import` in the code,
the ones inside functions too, since a lazy import is still a dependency a reader follows."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {"referee": ROOT / "referee", "arena": ROOT / "arena",
            "referee_client": ROOT / "clients" / "python" / "referee_client"}


def _modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = (package, *path.relative_to(folder).with_suffix("").parts)
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _targets(module: str, path: Path, node, known: dict) -> list[str]:
    """The known modules an import statement in `module` names (the deepest that exists)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".")[: None if path.name == "__init__.py" else -1]
            package = package[: len(package) - node.level + 1]
            base = ".".join(package + ([base] if base else []))
        names = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base
                 for alias in node.names]
    found = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != module:
            found.append(name)
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports, anywhere in its code."""
    known = _modules()
    graph = {}
    for module, path in known.items():
        nodes = ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        graph[module] = {target for node in nodes if isinstance(node, (ast.Import, ast.ImportFrom))
                         for target in _targets(module, path, node, known)}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_house_has_no_import_circle():
    """Every import, lazy ones included, leads away: no module reaches itself again."""
    assert circles(import_graph()) == []


def test_the_circle_finder_finds_a_circle():
    """The check can fail: a made-up graph with a circle of three is reported."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert circles(graph) == [["a", "b", "c"]]


def test_only_the_entry_points_import_the_composition_root():
    """The root knows the plug-ins; no plug-in (arena, access, limits, web), service or core
    module, arena command or client reaches back into it (the offline arena and the arena
    benchmarks assemble their services from parts). The command line and the benchmarks of
    the shipped app (referee.bench.*, started by the command line) are entry points."""
    graph = import_graph()
    importers = sorted(m for m, targets in graph.items() if "referee.root" in targets)
    assert [m for m in importers if m != "referee.cli" and not m.startswith("referee.bench.")] \
        == []


def test_the_rules_core_imports_no_io_library():
    """referee/core and referee/games never import Flask, Redis or requests (the guide)."""
    for module, path in _modules().items():
        if not module.startswith(("referee.core", "referee.games")):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                assert not any(n.split(".")[0] in {"flask", "redis", "requests", "rq"}
                               for n in names), (module, names)
