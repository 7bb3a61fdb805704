"""The codebase's shape, kept true by the suite (docs/architecture.md says why each rule holds):

- dependencies run one way: no import cycle between kb modules (imports under
  ``if TYPE_CHECKING:`` aside, as they never run);
- no private name (``_x``) of one module imported or used by another;
- no ``try: import kb... except ImportError`` guard: every kb module ships with the package;
- every module under 400 lines (the tests' and the benchmarks' too), every package with a
  docstring saying its role;
- every docstring example (doctest) in kb/ runs and passes.
"""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

KB = Path(__file__).resolve().parent.parent / "kb"
MAX_LINES = 400


def _modules() -> dict[str, Path]:
    found = {}
    for path in sorted(KB.rglob("*.py")):
        parts = path.relative_to(KB.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


MODULES = _modules()


def _base(module: str, node: ast.ImportFrom) -> str:
    """The module an ``from ... import`` names, relative imports resolved."""
    if not node.level:
        return node.module or ""
    package = module.split(".")
    if MODULES[module].name != "__init__.py":
        package = package[:-1]
    package = package[: len(package) - node.level + 1]
    return ".".join(package + ([node.module] if node.module else []))


def _owner(name: str) -> str | None:
    """The kb module that ``name`` (a dotted module or module.attribute) lives in."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _type_only(tree: ast.AST) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.dump(node.test):
            ids.update(id(sub) for stmt in node.body for sub in ast.walk(stmt))
    return ids


def _imports(module: str) -> tuple[set[str], list[str]]:
    """(kb modules ``module`` imports at run time, private names it takes from others)."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
    skip = _type_only(tree)
    edges: set[str] = set()
    private: list[str] = []
    aliases: dict[str, str] = {}  # local name -> kb module
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            for alias in node.names:
                owner = _owner(alias.name)
                if owner and alias.name.startswith("kb"):
                    edges.add(owner)
                    aliases[alias.asname or alias.name] = owner
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, node)
            if not base.startswith("kb"):
                continue
            for alias in node.names:
                full = f"{base}.{alias.name}"
                owner = full if full in MODULES else _owner(base)
                if owner is None:
                    continue
                edges.add(owner)
                if full in MODULES:
                    aliases[alias.asname or alias.name] = full
                elif alias.name.startswith("_") and not alias.name.startswith("__"):
                    private.append(f"{module} imports {owner}.{alias.name}")
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
            and aliases[node.value.id] != module
        ):
            private.append(f"{module} uses {aliases[node.value.id]}.{node.attr}")
    edges.discard(module)
    return edges, private


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_cycle_finder_finds_a_cycle_and_only_one():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules():
    graph = {module: _imports(module)[0] for module in MODULES}
    assert _cycles(graph) == []


def test_no_private_name_crosses_a_module():
    private = [line for module in MODULES for line in _imports(module)[1]]
    assert private == []


def test_no_import_guard_around_a_kb_module():
    guarded = []
    for module, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Try):
                continue
            caught = {getattr(h.type, "id", None) for h in node.handlers}
            if not caught & {"ImportError", "ModuleNotFoundError"}:
                continue
            for stmt in node.body:
                if isinstance(stmt, ast.ImportFrom) and _base(module, stmt).startswith("kb"):
                    guarded.append(f"{module}:{stmt.lineno}")
                if isinstance(stmt, ast.Import) and any(
                    a.name.startswith("kb") for a in stmt.names
                ):
                    guarded.append(f"{module}:{stmt.lineno}")
    assert guarded == []


def test_every_module_is_short_and_every_package_says_its_role():
    long = {
        m: n
        for m, p in MODULES.items()
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}
    silent = [
        m
        for m, p in MODULES.items()
        if p.name == "__init__.py" and not ast.get_docstring(ast.parse(p.read_text()))
    ]
    assert silent == []


def test_tests_and_benchmarks_are_short_too():
    root = KB.parent
    long = {
        str(p.relative_to(root)): n
        for folder in ("tests", "benchmarks")
        for p in sorted((root / folder).rglob("*.py"))
        if "node_modules" not in p.parts
        and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


@pytest.mark.parametrize("module", sorted(MODULES))
def test_doctests(module):
    imported = importlib.import_module(module)
    failures, _ = doctest.testmod(imported, optionflags=doctest.ELLIPSIS)
    assert failures == 0
