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
FLOORS = ("errors", "progress", "deprecation", "numbers", "fields", "graph", "model", "solves", "plots", "results", "certified",
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


PROFILE_CALLS = ("register_profile", "load_profile", "get_profile")
"""Calls that make or pick a Hypothesis profile: conftest.py's business alone."""


def fixed_example_counts(source: str, *, conftest: bool = False) -> list[int]:
    """Lines of ``source`` that fix a property test's number of examples, whatever the spelling: a ``max_examples=``
    keyword in any call (``settings(...)``, ``@settings(...)``, ``hypothesis.settings``, an alias, ``find(...,
    settings=settings(...))``, ``dict(...)``), a ``"max_examples"`` key in a dict literal (``**{...}``), an
    assignment to an attribute ``max_examples``, and outside conftest.py a profile registered, loaded or read.
    conftest.py may do all of it: its profiles and ``scaled(fraction)`` are where the number comes from.

    >>> fixed_example_counts("@settings(max_examples = 300)\\ndef test(): pass")
    [1]
    """
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            if not conftest and any(k.arg == "max_examples" for k in node.keywords):
                lines.append(node.lineno)
            elif not conftest and isinstance(node.func, ast.Attribute) and node.func.attr in PROFILE_CALLS:
                lines.append(node.lineno)
        elif isinstance(node, ast.Dict) and not conftest:
            if any(isinstance(k, ast.Constant) and k.value == "max_examples" for k in node.keys):
                lines.append(node.lineno)
        elif isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Attribute) and t.attr == "max_examples" for t in targets):
                lines.append(node.lineno)
    return sorted(set(lines))


def test_no_property_test_caps_the_thorough_profile():
    """Budgets of property tests scale with the active profile (``scaled(fraction)``), so the
    ``thorough`` profile runs every property longer; a fixed number of examples would cap it (every .py file
    of tests/, test or helper, read as a syntax tree: no spelling or spacing escapes)."""
    fixed = [f"{p.relative_to(ROOT)}:{line}" for p in sorted((ROOT / "tests").rglob("*.py"))
             for line in fixed_example_counts(p.read_text(encoding="utf-8"), conftest=p == ROOT / "tests" / "conftest.py")]
    assert fixed == []


@pytest.mark.parametrize("source", [
    "@settings(max_examples=300)\ndef test(): pass",
    "@settings( max_examples = 300 , deadline=None)\ndef test(): pass",
    "@hypothesis.settings(deadline=None,\n    max_examples=N)\ndef test(): pass",
    "from hypothesis import settings as s\n@s(max_examples=10)\ndef test(): pass",
    "m = find(st.integers(), bool, settings=settings(database=None, max_examples=300))",
    "FEW = settings(max_examples=max(5, settings.default.max_examples // 2))",
    "@settings(**{'max_examples': 3})\ndef test(): pass",
    "kw = dict(max_examples=3)",
    "settings.default.max_examples = 3",
    "settings.register_profile('mine', max_examples=3)",
    "settings.register_profile('mine', parent=settings.get_profile('ci'))",
    "settings.load_profile('thorough')",
])
def test_the_example_count_guard_catches_every_spelling(source):
    assert fixed_example_counts(source) != []


def test_the_example_count_guard_lets_scaled_budgets_and_conftest_through():
    assert fixed_example_counts("@settings(scaled(30/40), deadline=None)\ndef test(): pass") == []
    assert fixed_example_counts("m = find(s, f, settings=settings(scaled(300/40), database=None))") == []
    assert fixed_example_counts((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"), conftest=True) == []


# -- proofs_check's folders are its layers too ---------------------------------------------------------------------
PC_FLOORS = ("trusted", "algebra", "routes", "judging", "checks", "statistical", "symbolic", "runs", "cli")
"""proofs_check's floors from the bottom up (docs/architecture.md): a module imports its own floor or lower ones.
``trusted`` (the small checker, standard library only) is the bottom: it imports nothing of either package."""
PC_TOP_LEVEL = ("__init__", "__main__", "_legacy")  # the public API, `python -m proofs_check`, old paths: above every floor
PC_MAX_TOP_LEVEL_MODULES = 6


def _pc_floor(module: str) -> int:
    part = module.split(".")[1] if "." in module else "__init__"
    return len(PC_FLOORS) if part in PC_TOP_LEVEL else PC_FLOORS.index(part)


def test_proofs_check_modules_sit_on_named_floors_and_its_top_level_is_small():
    top = sorted(p.stem for p in (ROOT / "proofs_check").glob("*.py"))
    assert len(top) <= PC_MAX_TOP_LEVEL_MODULES, top
    assert set(top) <= set(PC_TOP_LEVEL), set(top) - set(PC_TOP_LEVEL)
    floors = {name.split(".")[1] for name in _graph() if name.startswith("proofs_check.") and name.count(".") >= 1}
    assert floors <= set(PC_FLOORS) | set(PC_TOP_LEVEL), floors - set(PC_FLOORS) - set(PC_TOP_LEVEL)


def test_no_proofs_check_import_runs_up_a_floor():
    """Every arrow of proofs_check points down its floors (imports inside functions and TYPE_CHECKING blocks
    included); the old paths' package hooks (``__getattr__`` serving ``_legacy``) are the one way up, on purpose."""
    up = sorted(f"{m} -> {d}" for m, deps in _graph().items() if m.startswith("proofs_check")
                for d in deps if d.startswith("proofs_check") and d != "proofs_check._legacy" and _pc_floor(d) > _pc_floor(m))
    assert up == []


def test_the_trusted_checker_imports_neither_package():
    """``proofs_check/trusted/verify.py`` runs with the standard library alone; its policy reads only its report."""
    deps = _graph()
    assert deps["proofs_check.trusted.verify"] == set()
    assert deps["proofs_check.trusted.policy"] <= {"proofs_check.trusted.verify", "exactpte.errors"}


def test_proofs_check_reaches_neither_exactpte_cli_nor_testing_outside_its_cli():
    """Checking code builds on exactpte's product API: only proofs_check's own command line may use exactpte's
    command-line helpers, and nothing of proofs_check uses exactpte's test helpers."""
    offenders = sorted(f"{m} -> {d}" for m, deps in _graph().items() if m.startswith("proofs_check")
                       for d in deps
                       if d.startswith("exactpte.testing") or (d.startswith("exactpte.cli") and not m.startswith("proofs_check.cli")))
    assert offenders == []


VERDICT_TYPES = ("Verdict", "FamilyVerdict", "CheckResult")
"""What a ``check_*`` function of proofs_check returns: verdicts (alone, in a list, or in a sweep job's result)."""


def test_a_check_name_means_running_checks():
    """``check_*`` names one thing: run checks and return verdicts.  exactpte's argument validators are ``require_*``
    (its only checks are the oracle's command, ``cli.commands._check`` and ``_check_mdp``), and every module-level ``check_*`` of
    proofs_check is annotated to return verdicts (the trusted checker's ``check_<key>`` methods judge one claimed
    key each into its report)."""
    wrong = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef) or not node.name.lstrip("_").startswith("check"):
                    continue
                returns = ast.unparse(node.returns) if node.returns is not None else ""
                if package == "exactpte" and node.name not in ("_check", "_check_command", "_check_mdp"):
                    wrong.append(f"{path.relative_to(ROOT)}: {node.name} (a validator is require_*)")
                elif package == "proofs_check" and not any(t in returns for t in VERDICT_TYPES):
                    wrong.append(f"{path.relative_to(ROOT)}: {node.name} -> {returns or '?'} (a check returns verdicts)")
    assert wrong == []


@pytest.mark.parametrize("package", PACKAGES)
def test_tests_mirror_the_packages(package):
    """``tests/<package>/`` has one folder per subpackage of the package (and no other folder), and every test file
    sits in the folder of the subpackage it tests or at the tree's top for the package as a whole."""
    subpackages = {p.parent.name for p in (ROOT / package).glob("*/__init__.py")}
    test_folders = {p.name for p in (ROOT / "tests" / package).iterdir() if p.is_dir() and p.name != "__pycache__"}
    assert test_folders <= subpackages, test_folders - subpackages
    missing = {s for s in subpackages - test_folders
               if any((ROOT / package / s).rglob("*.py")) and s not in UNTESTED_FOLDERS.get(package, ())}
    assert missing == set(), f"no tests/{package}/<folder> for {sorted(missing)}"
    nested = [str(p.relative_to(ROOT)) for p in (ROOT / "tests" / package).rglob("test_*.py")
              if len(p.relative_to(ROOT / "tests" / package).parts) > 2]
    assert nested == []


UNTESTED_FOLDERS: dict[str, tuple[str, ...]] = {}
"""Subpackages without a test folder of their own, with the reason (none: every folder has its tests)."""


def test_no_two_test_files_share_a_name():
    """One name, one test file: ``pytest -k`` and failure reports name a file unambiguously."""
    names: dict[str, list[str]] = {}
    for p in (ROOT / "tests").rglob("test_*.py"):
        names.setdefault(p.name, []).append(str(p.relative_to(ROOT)))
    assert {n: ps for n, ps in names.items() if len(ps) > 1} == {}
