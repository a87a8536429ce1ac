"""The layout's promises: documented public API, one direction of dependence, no import cycles
(imports inside functions included), short functions, typed packages that ship their marker."""

import ast
import importlib
import importlib.util
import inspect
import pkgutil
import shutil
import subprocess
import sys
import zipfile
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


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_nodes(node: ast.AST):
    """Every import statement under ``node``: module level, inside functions, methods, nested
    functions, classes, ``try`` and ``if`` blocks alike, and the body of ``if TYPE_CHECKING:`` too
    (it never runs, but a cycle the type checker follows is a cycle of the design: a module below
    types what it needs from above with a protocol of its own)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        else:
            yield from _import_nodes(child)


def _imports(path: Path, known: set[str]) -> set[str]:
    """Modules of the two packages that ``path`` imports anywhere (module level or inside functions),
    relative imports resolved, each import resolved to the longest known module it names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    here = _module_name(path).split(".")
    if path.name != "__init__.py":
        here = here[:-1]  # the package a relative import starts from

    def resolve(name):  # 'exactpte.fields.QQ' -> 'exactpte.fields'
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name

    out = set()
    for node in _import_nodes(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            # 'from pkg import submodule' imports the submodule; 'from mod import name' the module
            names = [resolve(f"{mod}.{a.name}") for a in node.names]
        else:
            names = [resolve(a.name) for a in node.names]
        out.update(n for n in names if n.split(".")[0] in PACKAGES)
    return out


def _graph() -> dict[str, set[str]]:
    """Module -> the modules of exactpte and proofs_check it imports.

    A package's ``__init__`` importing its submodules is an edge (importing the package runs those
    imports); a module importing one of its own parent packages is not (Python has imported the
    parents before the module itself starts)."""
    paths = {_module_name(p): p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py")}
    known = set(paths)
    graph = {}
    for name, path in paths.items():
        deps = _imports(path, known) - {"", name}
        graph[name] = {d for d in deps if not name.startswith(d + ".")}
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """One shortest cycle through each module that lies on a cycle, deduplicated: the strongly
    connected components of the import graph, spelled out module by module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(v):  # Tarjan's algorithm; the graph has ~100 nodes, recursion is fine
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                components.append(comp)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    cycles: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    for comp in components:
        for start in sorted(comp):
            # breadth-first search back to start inside the component: a shortest cycle through it
            parent = {start: None}
            queue = [start]
            found = None
            while queue and found is None:
                v = queue.pop(0)
                for w in sorted(graph[v] & comp):
                    if w == start:
                        found = v
                        break
                    if w not in parent:
                        parent[w] = v
                        queue.append(w)
            path = [start]
            v = found
            while v is not None and v != start:
                path.insert(1, v)
                v = parent[v]
            key = min(tuple(path[i:] + path[:i]) for i in range(len(path)))
            if key not in seen:
                seen.add(key)
                cycles.append(list(key) + [key[0]])
    return cycles


def test_exactpte_never_imports_proofs_check():
    """No module of exactpte imports proofs_check, at module level or inside a function."""
    offenders = {m: sorted(d for d in deps if d.startswith("proofs_check"))
                 for m, deps in _graph().items() if m.split(".")[0] == "exactpte"}
    assert {m: deps for m, deps in offenders.items() if deps} == {}


def test_imports_have_no_cycles():
    """No import cycle among the modules of exactpte and proofs_check, counting imports inside
    functions too (a deferred import hides a cycle, it does not remove it); each cycle found is
    reported module by module."""
    cycles = _cycles(_graph())
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


MAX_FUNCTION_LINES = 80


def _functions(tree: ast.AST, prefix: str = ""):
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield f"{prefix}{node.name}", node
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        else:
            yield from _functions(node, prefix)


def test_no_function_is_longer_than_80_lines():
    """Every function and method of exactpte and proofs_check (nested ones included) spans at most
    80 lines from its ``def`` to its last line, docstring included."""
    long = []
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for name, node in _functions(tree):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {name} ({lines} lines)")
    assert long == [], "functions longer than 80 lines:\n" + "\n".join(long)


@pytest.mark.parametrize("package", PACKAGES)
def test_py_typed_marker_exists_and_is_declared(package):
    """The PEP 561 marker ``py.typed`` is in each package and pyproject's package-data lists it."""
    assert (ROOT / package / "py.typed").is_file()
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in data["tool"]["setuptools"]["package-data"].get(package, [])


@pytest.mark.slow
def test_wheel_ships_py_typed(tmp_path):
    """A wheel built from the sources carries ``exactpte/py.typed`` and ``proofs_check/py.typed``
    (builds the wheel with pip, ~3 s: the packaging, not the declaration, is what ships)."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    for pkg in PACKAGES:
        shutil.copytree(ROOT / pkg, src / pkg, ignore=shutil.ignore_patterns("__pycache__"))
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path / "dist"), str(src)],
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    (wheel,) = (tmp_path / "dist").glob("*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {f"{pkg}/py.typed" for pkg in PACKAGES} <= set(names)


@pytest.mark.parametrize("module", ["exactpte.errors"])
def test_every_exception_lives_in_one_module(module):
    errors_module = importlib.import_module(module)
    for mod in _modules():
        for name, obj in vars(mod).items():
            if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == mod.__name__:
                assert mod is errors_module, f"{mod.__name__}.{name} is an exception outside {module}"


# the module each optional extra brings, for the check below; NO_EXTRA: importorskip'd, in no extra, and why
EXTRA_OF_MODULE = {"stormpy": "peers", "quantecon": "peers", "mdptoolbox": "peers", "discreteMarkovChain": "peers", "hiive": "peers", "gymnasium": "gym", "matplotlib": "plot", "distributed": "dask", "dask": "dask",
                   "mkdocs": "docs", "mkdocstrings": "docs", "material": "docs"}
NO_EXTRA = {"pydtmc": "pins numpy < 2", "tomllib": "standard library from Python 3.11"}


def _extra_marks(decorators) -> set[str]:
    """The NAMEs of ``pytest.mark.extra(NAME)`` among decorators (or a ``pytestmark`` value)."""
    out = set()
    for d in decorators:
        for node in ast.walk(d):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "extra"
                    and node.args and isinstance(node.args[0], ast.Constant)):
                out.add(node.args[0].value)
    return out


def test_every_test_needing_an_extra_is_marked_with_it():
    """A test (or fixture) that importorskips a module of an optional extra carries
    ``@pytest.mark.extra(NAME)`` (itself or through its module's ``pytestmark``), NAME a real extra
    of pyproject.toml: so the extras stage of .ci/run (-m extra, EXACTPTE_REQUIRE_EXTRAS=1) runs it
    and fails it instead of skipping it."""
    tomllib = pytest.importorskip("tomllib", reason="tomllib needs Python 3.11")
    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"])
    problems = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        if "data" in path.relative_to(ROOT / "tests").parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_marks = set()
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "pytestmark" for t in node.targets):
                module_marks |= _extra_marks([node.value])
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            marks = module_marks | _extra_marks(fn.decorator_list)
            problems += [f"{path.relative_to(ROOT)}:{fn.lineno} {fn.name}: extra({m!r}) is no extra of pyproject.toml"
                         for m in marks - extras]
            for call in ast.walk(fn):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "importorskip"
                        and call.args and isinstance(call.args[0], ast.Constant)):
                    continue
                module = call.args[0].value.split(".")[0]
                if module in NO_EXTRA:
                    continue
                extra = EXTRA_OF_MODULE.get(module)
                if extra is None:
                    problems.append(f"{path.relative_to(ROOT)}:{call.lineno} {fn.name}: importorskip({module!r}) belongs "
                                    "to no known extra (add it to EXTRA_OF_MODULE or NO_EXTRA)")
                elif extra not in marks:
                    problems.append(f"{path.relative_to(ROOT)}:{call.lineno} {fn.name}: importorskip({module!r}) "
                                    f"without @pytest.mark.extra({extra!r})")
    assert problems == [], "\n".join(problems)


# -- the folders are the layers ------------------------------------------------------------------------------
FLOORS = ("errors", "progress", "numbers", "fields", "graph", "model", "solves", "plots", "results", "certified",
          "mdp", "io", "oracle", "estimator", "testing", "cli")
"""exactpte's floors from the bottom up (docs/architecture.md): a module imports its own floor or lower ones."""
TOP_LEVEL = ("__init__", "__main__", "_legacy")  # the public API, `python -m exactpte`, old paths: above every floor
MAX_TOP_LEVEL_MODULES = 8


def _floor(module: str) -> int:
    part = module.split(".")[1] if "." in module else "__init__"
    return len(FLOORS) if part in TOP_LEVEL else FLOORS.index(part)


def test_every_module_sits_on_a_named_floor_and_the_top_level_is_small():
    top = sorted(p.stem for p in (ROOT / "exactpte").glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, top
    floors = {name.split(".")[1] for name in _graph() if name.startswith("exactpte.") and name.count(".") >= 1}
    assert floors <= set(FLOORS) | set(TOP_LEVEL), floors - set(FLOORS) - set(TOP_LEVEL)


def test_no_import_runs_up_a_floor():
    """Every arrow points down the page (imports inside functions and TYPE_CHECKING blocks included)."""
    up = sorted(f"{m} -> {d}" for m, deps in _graph().items() if m.startswith("exactpte")
                for d in deps if d.startswith("exactpte") and _floor(d) > _floor(m))
    assert up == []


def test_product_code_never_imports_the_testing_package():
    """`exactpte check` and the rest of the product run without `exactpte.testing` (test helpers only)."""
    offenders = sorted(f"{m} -> {d}" for m, deps in _graph().items()
                       if m.startswith("exactpte.") and not m.startswith(("exactpte.testing", "exactpte._legacy"))
                       for d in deps if d.startswith("exactpte.testing"))
    assert offenders == []


def _public_name(module: str, name: str) -> bool:
    if any(part.startswith("_") for part in module.split(".")) or name.startswith("_"):
        return False
    return name in getattr(importlib.import_module(module), "__all__", ())


def test_proofs_check_uses_public_names_of_exactpte_only():
    """proofs_check builds on what exactpte publishes: names in ``exactpte.__all__`` or in the ``__all__``
    of a public module, never a private module or name (inside functions too)."""
    private = []
    for path in (ROOT / "proofs_check").rglob("*.py"):
        for node in _import_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "exactpte":
                for alias in node.names:
                    target = f"{node.module}.{alias.name}"
                    parent = importlib.import_module(node.module)
                    is_module = hasattr(parent, "__path__") and importlib.util.find_spec(target) is not None
                    if not is_module and not _public_name(node.module, alias.name):
                        private.append(f"{path.relative_to(ROOT)}: from {node.module} import {alias.name}")
            elif isinstance(node, ast.Import):
                private += [f"{path.relative_to(ROOT)}: import {a.name}" for a in node.names
                            if a.name.startswith("exactpte.") and any(p.startswith("_") for p in a.name.split("."))]
    assert private == []


def test_no_property_test_caps_the_thorough_profile():
    """Budgets of property tests scale with the active profile (``scaled(fraction)``), so the
    ``thorough`` profile runs every property longer; a fixed ``max_examples=`` would cap it."""
    fixed = [f"{p.relative_to(ROOT)}:{i}" for p in (ROOT / "tests").rglob("test_*.py")
             for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if line.replace(" ", "").startswith("@settings(max_" + "examples=")]
    assert fixed == []
