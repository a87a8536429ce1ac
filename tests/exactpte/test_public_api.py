"""The public API: one list of public names, one interface for every result kind, one registry of
quantities, and a one-way import graph among the result modules (imports inside functions count)."""

import argparse
import ast
import dataclasses
import json
from pathlib import Path

import pytest

import exactpte
from exactpte.results.quantities import COMPUTED, CORE, PER_STATE, QUANTITY_KEYS, REGISTRY
from exactpte.results.decomposition import Result

from paths import ROOT


# -- the public names ----------------------------------------------------------------------------------
def _type_checking_names() -> dict[str, str]:
    """``{name: module}`` imported under ``if TYPE_CHECKING:`` in exactpte/__init__.py."""
    tree = ast.parse((ROOT / "exactpte" / "__init__.py").read_text(encoding="utf-8"))
    out = {}
    for node in tree.body:
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom) and imp.level == 1
                out.update({a.asname or a.name: imp.module for a in imp.names})
    return out


def test_lazy_names_and_type_checking_imports_agree():
    assert _type_checking_names() == exactpte._LAZY
    assert exactpte.__all__ == list(exactpte._LAZY)


@pytest.mark.parametrize("name", sorted(exactpte._LAZY))
def test_every_public_name_loads(name):
    assert getattr(exactpte, name) is not None


# -- one interface for every result kind ------------------------------------------------------------------
def _results():
    chain = exactpte.example("branching")
    return exactpte.decompose(chain), exactpte.decompose_certified(chain)


def test_exact_and_certified_results_share_the_interface():
    members = [n for n in vars(Result) if not n.startswith("_")]
    for result in _results():
        cls = type(result)
        for name in members:
            attr = getattr(cls, name, None)
            if name in ("to_dict", "to_json"):
                assert callable(attr), (cls, name)
            else:  # a property, a field or a lazily computed quantity: read without a call
                assert not callable(getattr(result, name)) or name == "chain", (cls, name)
        assert dataclasses.is_dataclass(result) and cls.__dataclass_params__.frozen
        with pytest.raises(dataclasses.FrozenInstanceError):
            result.anchors = ()  # type: ignore[misc]


def test_output_options_are_the_same_keywords_with_the_same_defaults():
    import inspect

    for result in _results():
        for method in ("to_dict", "to_json"):
            params = inspect.signature(getattr(result, method)).parameters
            assert all(p.kind is p.KEYWORD_ONLY for p in params.values())
            assert {k: p.default for k, p in params.items()} == (
                {"only": None, "include_P_inf": True, "include_hitting_times": False, "factored": False}
                | ({"indent": None} if method == "to_json" else {}))
    strat = exactpte.stratify(exactpte.example("two-state-pq"))
    assert dataclasses.is_dataclass(strat) and json.loads(strat.to_json(indent=1))["params"] == ["p", "q"]


def test_certified_only_and_absorption_match_the_exact_result():
    dec, cert = _results()
    d = cert.to_dict(only="rho,h")
    assert [k for k in d if k in QUANTITY_KEYS] == ["rho", "h"]
    assert "P_inf" in cert.to_dict() and "P_inf" not in cert.to_dict(include_P_inf=False)
    for name in ("absorption", "psi_coords"):
        iv = getattr(cert, name)
        exact = getattr(dec, name)
        flat = [x for row in exact for x in row] if name == "absorption" else list(exact)
        assert bool(type(iv)(iv.lo.reshape(-1), iv.hi.reshape(-1)).contains(flat).all())
    with pytest.raises(exactpte.UsageError):
        cert.to_dict(include_hitting_times=True)


def test_decomposition_constructor_makes_its_own_work():
    chain = exactpte.example("periodic")
    dec = exactpte.Decomposition(chain, chain.structure, [0, 1])
    assert dec.anchors == ((0, 1),) and dec.h == exactpte.decompose(chain).h
    with pytest.raises(TypeError):
        exactpte.Decomposition(chain, chain.structure, ((0, 1),), _work=None)  # type: ignore[call-arg]


def test_deviation_apply_is_the_bias_of_another_reward():
    dec = exactpte.decompose(exactpte.example("branching"), anchors=None)
    x = list(range(dec.n))
    assert dec.deviation_apply(x) == exactpte.decompose(dec.chain.with_reward(x)).h


# -- the registry ---------------------------------------------------------------------------------------
def test_registry_drives_every_list():
    import inspect

    from exactpte.certified import result as certified_result
    from exactpte.cli.commands import _quantities_printed
    from exactpte.oracle import keys as oracle
    from exactpte.results import report, strata

    assert report.QUANTITY_KEYS == QUANTITY_KEYS and report.COLUMNS[4:] == PER_STATE == strata.PER_STATE
    assert certified_result.QUANTITIES == CORE and exactpte.results.decomposition.QUANTITIES == COMPUTED
    assert oracle.VECTOR_KEYS == tuple(k for k in QUANTITY_KEYS if REGISTRY[k].kind == "state")
    assert set(oracle.KEYS) >= set(QUANTITY_KEYS)
    # every computed quantity is a registry-driven descriptor of the result class, not a plain attribute
    descriptors = {name: inspect.getattr_static(exactpte.Decomposition, name) for name in COMPUTED}
    assert all(type(d).__name__ == "_Quantity" and d.name == name for name, d in descriptors.items()), descriptors
    # the CLI's JSON prints exactly the registry's keys, in its order (P_inf and hitting times by their options)
    args = argparse.Namespace(only=None, json=True, no_p_inf=False, hitting_times=True, csv=False)
    assert _quantities_printed(args) == QUANTITY_KEYS


# -- a one-way import graph ---------------------------------------------------------------------------------
OWNED = ("exactpte.results.decomposition", "exactpte.solves.work", "exactpte.results.report", "exactpte.results.strata", "exactpte.certified",
         "exactpte.certified.result", "exactpte.plots.chains", "exactpte.solves.evaluation", "exactpte.results.quantities",
         "exactpte.solves.summation", "exactpte.graph.view", "exactpte.cli.commands")


def _all_imports(path: Path) -> set[str]:
    """Every exactpte module ``path`` imports, at module level or inside functions, except under
    ``if TYPE_CHECKING:`` (relative imports resolved; ``from .x import y`` counts ``x.y`` when a module)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    here = list(parts[:-1])
    skip: set[int] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            skip.update(id(n) for n in ast.walk(node))
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.ImportFrom):
            base = ".".join(here[: len(here) - (node.level - 1)]) if node.level else ""
            mod = ".".join(x for x in (base, node.module) if x)
            out.add(mod)
            out.update(f"{mod}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def import_graph() -> dict[str, set[str]]:
    """``{module: exactpte modules it imports}`` over the whole package."""
    paths = {}
    for path in (ROOT / "exactpte").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        paths[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    graph = {}
    for name, path in paths.items():
        deps = {d for d in _all_imports(path) if d in paths} - {name}
        graph[name] = {d for d in deps if not d.startswith(name + ".")}  # a package's own submodules
    return graph


def cycles_through(graph: dict[str, set[str]], modules) -> list[list[str]]:
    """The strongly connected components (of more than one module) that hold one of ``modules``."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    comps: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                comp.append(w)
                if w == v:
                    break
            comps.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return [c for c in comps if len(c) > 1 and any(m in modules for m in c)]


def test_result_modules_form_a_one_way_graph():
    assert cycles_through(import_graph(), OWNED) == []


if __name__ == "__main__":  # print the graph among the result modules and every cycle in the package
    graph = import_graph()
    for m in OWNED:
        print(f"{m:28} -> {', '.join(sorted(d for d in graph[m] if d in OWNED)) or '-'}")
    print("cycles through these modules:", cycles_through(graph, OWNED))
    print("cycles anywhere in exactpte:", cycles_through(graph, set(graph)))
