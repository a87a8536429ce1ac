"""The layout's promises: documented public API, one direction of dependence, no import cycles."""

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import exactpte
import proofs_check

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("exactpte", "proofs_check")


def _modules():
    for pkg in (exactpte, proofs_check):
        for m in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
            if not m.name.endswith("__main__"):
                yield importlib.import_module(m.name)


def _public_objects():
    for mod in _modules():
        names = getattr(mod, "__all__", [n for n in vars(mod) if not n.startswith("_")])
        for n in names:
            obj = getattr(mod, n, None)
            if getattr(obj, "__module__", None) != mod.__name__ or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            yield f"{mod.__name__}.{n}", obj
            if inspect.isclass(obj):
                for a, v in vars(obj).items():
                    if a.startswith("_"):
                        continue
                    f = v.fget if isinstance(v, property) else getattr(v, "func", v)
                    f = getattr(f, "__func__", f)
                    if inspect.isfunction(f):
                        yield f"{mod.__name__}.{n}.{a}", f


def test_every_public_function_class_and_method_has_a_docstring():
    undocumented = [name for name, obj in _public_objects() if not inspect.getdoc(obj)]
    assert undocumented == []


def _imports(path: Path, package: str) -> set[str]:
    """Modules of the two packages that ``path`` imports at module level (not inside functions)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parts = path.relative_to(ROOT).with_suffix("").parts
    here = list(parts[:-1]) if parts[-1] != "__init__" else list(parts[:-1])
    out = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
                names = [mod] if node.module else [f"{mod}.{a.name}" for a in node.names]
            else:
                names = [node.module]
            out.update(n for n in names if n.split(".")[0] in PACKAGES)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
    return out


def _graph() -> dict[str, set[str]]:
    graph = {}
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            graph[name] = _imports(path, pkg)
    return graph


def test_exactpte_never_imports_proofs_check():
    offenders = {m: deps for m, deps in _graph().items() if m.startswith("exactpte") and any(d.startswith("proofs_check") for d in deps)}
    assert offenders == {}


def test_module_level_imports_have_no_cycles():
    graph = _graph()
    known = set(graph)

    def resolve(name):  # 'exactpte.fields.QQ' -> 'exactpte.fields'
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    edges = {m: {resolve(d) for d in deps} - {"", m} for m, deps in graph.items()}
    # a package's __init__ importing its own submodules is not a cycle of ideas
    edges = {m: {d for d in deps if not d.startswith(m + ".")} for m, deps in edges.items()}
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(m, stack):
        state[m] = 1
        for d in edges.get(m, ()):
            if state.get(d) == 1:
                cycle.extend(stack[stack.index(d):] + [d])
                return True
            if state.get(d) is None and visit(d, stack + [d]):
                return True
        state[m] = 2
        return False

    for m in sorted(edges):
        if state.get(m) is None and visit(m, [m]):
            break
    assert cycle == []


@pytest.mark.parametrize("module", ["exactpte.errors"])
def test_every_exception_lives_in_one_module(module):
    errors_module = importlib.import_module(module)
    for mod in _modules():
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == mod.__name__:
                assert mod is errors_module, f"{mod.__name__}.{name} is an exception outside {module}"
