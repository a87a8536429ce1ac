"""Chain pictures fit for a paper, measured on what they show: every state and every edge one SVG element, no edge
through a node it does not join (read back from the SVG alone, tests/svg_geometry.py), every state on the canvas
at every --size (or a usage error naming the smallest size that holds the picture), labels inside their nodes and
beside their own edges, legend glyphs as the nodes are drawn; the TikZ and DOT exports parsed (one node a state, one
edge a transition, one cluster a class), and made without matplotlib."""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.plots.geometry import chain_geometry, edges_through_nodes
from exactpte.testing.random_chains import random_chain
from svg_geometry import read_svg

from paths import ROOT


def _random(n: int, seed: int) -> exactpte.MarkovRewardProcess:
    return random_chain(n, seed=seed, n_classes=1 + seed % 3)


CHAINS = {"ruin": lambda: exactpte.example("ruin"), "two-loops": lambda: exactpte.example("two-loops"),
          "branching": lambda: exactpte.example("branching"),
          **{f"random-6-{k}": (lambda k=k: _random(6, k)) for k in range(3)},
          **{f"random-12-{k}": (lambda k=k: _random(12, k)) for k in range(3)}}


def _transitions(chain: Any) -> set[tuple[int, int]]:
    return {(i, j) for i, j, _ in chain.edges()}


@pytest.mark.parametrize("seed", range(60))
def test_no_edge_passes_through_a_node_in_the_geometry(seed: int) -> None:
    """The geometry alone (no matplotlib): 6 to 14 states, one to three classes; every transition an edge."""
    chain = random_chain(6 + seed % 9, seed=seed, n_classes=1 + seed % 3)
    g = chain_geometry(chain.structure, chain.support, [chain.label(s) for s in range(chain.n)])
    assert edges_through_nodes(g) == []
    assert {(e.source, e.target) for e in g.edges} == _transitions(chain)


def test_the_measure_sees_an_edge_through_a_node(monkeypatch: Any) -> None:
    """The mutant: edges all straight (no routing); 0 -> 2 then runs through 1 on the line 0 -> 1 -> 2."""
    from exactpte.plots import geometry

    chain = exactpte.MarkovRewardProcess.from_edges(4, [(0, 1, "1/2"), (0, 2, "1/2"), (1, 2, 1), (2, 3, 1), (3, 3, 1)], [0, 0, 0, 1])
    monkeypatch.setattr(geometry, "BENDS", (0.0,))
    monkeypatch.setattr(geometry, "_detours", lambda *args: [])
    pos = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (2.0, 0.0), 3: (3.0, 0.0)}
    monkeypatch.setattr(geometry, "layout", lambda structure, succ=None: pos)
    g = chain_geometry(chain.structure, chain.support, ["a", "b", "c", "d"])
    assert (0, 2, 1) in edges_through_nodes(g)


# -- drawn (matplotlib) -------------------------------------------------------------------------------------


@pytest.mark.extra("plot")
@pytest.mark.parametrize("name", sorted(CHAINS))
def test_the_svg_has_an_element_per_state_and_edge_and_no_edge_through_a_node(pyplot: Any, name: str, tmp_path: Path) -> None:
    chain = CHAINS[name]()
    path = tmp_path / "c.json"
    exactpte.dump(chain, str(path))
    for extra in ([], ["--edge-labels"]):
        out = tmp_path / "c.svg"
        assert main(["draw", str(path), "-o", str(out), *extra]) == 0
        picture = read_svg(out.read_text())
        assert sorted(picture.nodes) == list(range(chain.n))
        assert set(picture.edges) == _transitions(chain)
        assert picture.through_nodes() == [] and picture.outside() == []


@pytest.mark.extra("plot")
@pytest.mark.parametrize("name", sorted(CHAINS))
@pytest.mark.parametrize("size", ["3,3", "4,6"])
def test_every_size_draws_the_whole_graph_or_names_the_smallest_size_that_does(pyplot: Any, name: str, size: str,
                                                                              tmp_path: Path, capsys: Any) -> None:
    chain = CHAINS[name]()
    path, out = tmp_path / "c.json", tmp_path / "c.svg"
    exactpte.dump(chain, str(path))
    code = main(["draw", str(path), "--size", size, "-o", str(out)])
    if code == 2:
        message = capsys.readouterr().err
        assert "Traceback" not in message
        smallest = re.search(r"the smallest size that can is ([0-9.]+),([0-9.]+)", message)
        assert smallest is not None, message
        size = f"{smallest[1]},{smallest[2]}"
        assert main(["draw", str(path), "--size", size, "-o", str(out)]) == 0  # and that size does hold it
    else:
        assert code == 0
    picture = read_svg(out.read_text())
    width, height = (float(x) * 72 for x in size.split(","))
    assert (round(picture.width), round(picture.height)) == (round(width), round(height))
    assert sorted(picture.nodes) == list(range(chain.n)) and picture.outside() == [] and picture.through_nodes() == []


@pytest.mark.extra("plot")
def test_labels_fit_inside_their_nodes_long_ones_shrunk_or_cut(pyplot: Any) -> None:
    """Long labels: the node grows, the font shrinks, and past that the label is cut with an ellipsis; every
    label's box (measured by the renderer) lies inside its node's."""
    from exactpte.plots import draw

    labels = ["home", "a-rather-long-state-name", "x" * 60, "B7"]
    chain = exactpte.MarkovRewardProcess.from_edges(4, [(0, 1, 1), (1, 2, 1), (2, 3, 1), (3, 2, 1)], [0, 0, 1, 0],
                                                    labels=labels)
    ax = draw(chain)
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    nodes = {p.get_gid(): p.get_window_extent(renderer) for p in ax.patches if (p.get_gid() or "").startswith("state-")}
    texts = ax.texts[:4]
    assert texts[2].get_text().endswith("…") and texts[0].get_text() == "home"
    for s, t in enumerate(texts):
        box, node = t.get_window_extent(renderer), nodes[f"state-{s}"]
        assert node.x0 <= box.x0 and box.x1 <= node.x1 and node.y0 <= box.y0 and box.y1 <= node.y1, (s, box, node)


@pytest.mark.extra("plot")
@pytest.mark.parametrize("name", ["ruin", "branching", "two-loops", "random-6-1"])
def test_edge_labels_sit_beside_their_own_edge(pyplot: Any, name: str) -> None:
    """Every probability written, nearer its own edge than any other (the nearest curve to its centre)."""
    import numpy as np

    from exactpte.plots import draw
    from exactpte.plots.chains import geometry_of
    from exactpte.plots.edge_labels import label_owner

    chain = CHAINS[name]()
    ax = draw(chain, edge_labels=True)
    g = geometry_of(chain, edge_labels=True)
    to_px = ax.transData.transform
    curves = np.array([to_px(e.samples(48)) for e in g.edges])
    written = [t for t in ax.texts if t.get_bbox_patch() is not None]
    assert len(written) == len(g.edges)
    entries = {(i, j): chain.field.to_text(q) for i, j, q in chain.edges()}
    owners = [label_owner(tuple(to_px(t.get_position())), curves) for t in written]
    assert [entries[(g.edges[k].source, g.edges[k].target)] for k in owners] == [t.get_text() for t in written]
    assert sorted(owners) == list(range(len(g.edges)))  # one label an edge


@pytest.mark.extra("plot")
def test_the_legend_glyphs_are_the_nodes_as_drawn(pyplot: Any) -> None:
    """Each class's glyph has its nodes' fill; the anchor glyph the anchors' rim; the transient glyph their grey."""
    from matplotlib.colors import to_hex

    from exactpte.plots import draw

    dec = exactpte.decompose(exactpte.example("branching"))
    ax = draw(dec)
    nodes = {int(p.get_gid().split("-")[1]): p for p in ax.patches if (p.get_gid() or "").startswith("state-")}
    legend = dict(zip((t.get_text().split(":")[0] for t in ax.get_legend().get_texts()), ax.get_legend().legend_handles))
    for i, members in enumerate(dec.classes):
        assert {to_hex(nodes[s].get_facecolor()) for s in members} == {to_hex(legend[f"F{i}"].get_markerfacecolor())}
        assert legend[f"F{i}"].get_marker() == "o"
    anchors = {s for group in dec.anchors for s in group}
    anchor_glyph = legend["anchor (one per cyclic class)"]
    assert {nodes[s].get_linewidth() for s in anchors} == {anchor_glyph.get_markeredgewidth()}
    assert {to_hex(nodes[s].get_facecolor()) for s in dec.transient} == {to_hex(legend["transient state"].get_markerfacecolor())}


# -- TikZ and DOT -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(CHAINS))
def test_tikz_has_a_node_per_state_and_a_draw_per_transition(name: str, tmp_path: Path, capsys: Any) -> None:
    chain = CHAINS[name]()
    path = tmp_path / "c.json"
    exactpte.dump(chain, str(path))
    assert main(["draw", str(path), "--format", "tikz"]) == 0
    tex = capsys.readouterr().out
    assert tex.startswith(r"\documentclass[tikz, border=4pt]{standalone}") and tex.rstrip().endswith(r"\end{document}")
    assert r"\usepackage{amsmath}" in tex
    nodes = re.findall(r"\\node\[(?:anchor )?state, fill=([a-z0-9]+), [^\]]*\] \(s([0-9]+)\) at \(([-0-9.]+), ([-0-9.]+)\) \{(.*)\};", tex)
    assert sorted(int(s) for _, s, *_ in nodes) == list(range(chain.n))
    S = chain.structure
    assert all(fill == (f"class{S.class_of[int(s)]}" if S.class_of[int(s)] >= 0 else "transient") for fill, s, *_ in nodes)
    assert {label for *_, label in nodes} == {chain.label(s).replace("_", r"\_") for s in range(chain.n)}
    edges = re.findall(r"\\draw\[edge\] \(s([0-9]+)\) (?:--|\.\. controls \([^)]*\) and \([^)]*\) \.\.) \(s([0-9]+)\) "
                       r"node\[prob, pos=0\.5(?:, swap)?\] \{\$([^$]+)\$\};", tex)
    assert sorted((int(a), int(b)) for a, b, _ in edges) == sorted(_transitions(chain))
    assert len(edges) == tex.count(r"\draw[edge]") == tex.count("\\draw")  # every \draw an edge
    assert tex.count("\\node") == chain.n  # every \node a state
    entries = {(i, j): chain.field.to_latex(q) for i, j, q in chain.edges()}
    assert all(label == entries[(int(a), int(b))] for a, b, label in edges)
    assert tex.count("{") == tex.count("}")


def _latex_ready() -> bool:
    """pdflatex with the standalone class and TikZ (Debian: texlive-latex-extra, texlive-pictures)."""
    if shutil.which("pdflatex") is None or shutil.which("kpsewhich") is None:
        return False
    found = subprocess.run(["kpsewhich", "standalone.cls", "tikz.sty"], capture_output=True, text=True)
    return len(found.stdout.split()) == 2


@pytest.mark.skipif(not _latex_ready(), reason="pdflatex with standalone and TikZ is not installed (the TikZ text is parsed above)")
@pytest.mark.parametrize("name", ["ruin", "branching", "random-12-1"])
def test_tikz_compiles(name: str, tmp_path: Path) -> None:
    """pdflatex reads it without one error (rational probabilities are \\tfrac: amsmath), into one page."""
    from exactpte.plots.export import to_tikz

    (tmp_path / "c.tex").write_text(to_tikz(exactpte.decompose(CHAINS[name]())))
    out = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "c.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout[-2000:]
    log = (tmp_path / "c.log").read_text(errors="replace")
    assert not re.search(r"^! ", log, re.MULTILINE) and "Output written on c.pdf (1 page" in log


@pytest.mark.parametrize("name", sorted(CHAINS))
def test_dot_has_a_cluster_per_class_a_node_per_state_and_an_edge_per_transition(name: str, tmp_path: Path) -> None:
    chain = CHAINS[name]()
    path, out = tmp_path / "c.json", tmp_path / "c.dot"
    exactpte.dump(chain, str(path))
    assert main(["draw", str(path), "-o", str(out)]) == 0
    dot = out.read_text()
    assert dot.count("{") == dot.count("}") and re.search(r"^digraph chain \{$", dot, re.MULTILINE)
    clusters = re.findall(r"subgraph cluster_F([0-9]+) \{(.*?)\n  \}", dot, re.DOTALL)
    S = chain.structure
    assert [int(i) for i, _ in clusters] == list(range(len(S.classes)))
    for i, body in clusters:
        assert sorted(int(s) for s in re.findall(r"^\s*s([0-9]+) \[", body, re.MULTILINE)) == list(S.classes[int(i)])
    nodes = re.findall(r'^\s*s([0-9]+) \[label="((?:[^"\\]|\\.)*)", fillcolor="#[0-9a-f]{6}", pos="([-0-9.]+),([-0-9.]+)!"',
                       dot, re.MULTILINE)
    assert sorted(int(s) for s, *_ in nodes) == list(range(chain.n))
    edges = re.findall(r"^\s*s([0-9]+) -> s([0-9]+) \[label=\"([^\"]*)\", [^\]]*\];$", dot, re.MULTILINE)
    assert sorted((int(a), int(b)) for a, b, _ in edges) == sorted(_transitions(chain)) and len(edges) == dot.count(" -> ")
    assert dot.count("[") == chain.n + len(edges)  # no statement but the states' and the transitions' carries attributes
    if shutil.which("dot"):  # Graphviz reads it (its own layout and ours)
        for program in (["dot"], ["neato", "-n2"]):
            res = subprocess.run([*program, "-Tsvg", str(out)], capture_output=True, text=True, timeout=60)
            assert res.returncode == 0 and res.stdout.count('class="node"') == chain.n, res.stderr


def test_tikz_and_dot_need_no_matplotlib(tmp_path: Path) -> None:
    """With matplotlib made unimportable, --format tikz and dot still write (they are text)."""
    code = ("import sys; sys.modules['matplotlib'] = None\n"
            "from exactpte.cli.commands import main\n"
            "assert main(['draw', '--example', 'ruin', '--format', 'tikz', '-o', sys.argv[1]]) == 0\n"
            "assert main(['draw', '--example', 'ruin', '--format', 'dot', '-o', sys.argv[2]]) == 0\n")
    res = subprocess.run([sys.executable, "-c", code, str(tmp_path / "r.tex"), str(tmp_path / "r.dot")], cwd=ROOT,
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert (tmp_path / "r.tex").read_text().count(r"\node[") >= 4 and " -> " in (tmp_path / "r.dot").read_text()


def test_the_positions_in_tikz_and_dot_are_the_pictures() -> None:
    """The same geometry: TikZ's coordinates (units) and DOT's (points) are the layout's."""
    from exactpte.plots.export import to_dot, to_tikz

    chain = exactpte.example("ruin")
    g = chain_geometry(chain.structure, chain.support, list(chain.labels or ()), edge_labels=True)
    tex, dot = to_tikz(chain), to_dot(chain)
    for s, (x, y) in g.pos.items():
        assert f"(s{s}) at ({x:.3f}, {y:.3f})" in tex
        (px, py) = re.search(rf's{s} \[[^\]]*pos="([-0-9.]+),([-0-9.]+)!"', dot).groups()  # type: ignore[union-attr]
        assert math.isclose(float(px), x * 72 * g.scale, abs_tol=0.06) and math.isclose(float(py), y * 72 * g.scale, abs_tol=0.06)


# -- the options ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [["--quantity", "bogus"], ["--quantity", "stationary"], ["--quantity", "P_inf"],
                                  ["--quantity", "basis"], ["--quantity", "class_gain"], ["--quantity", "theta", "--state", "3"],
                                  ["--quantity", "h", "--state", "9"], ["--quantity", "h", "--state", "nowhere"]])
def test_a_bad_strata_quantity_or_state_is_a_usage_error(args: list[str], tmp_path: Path, capsys: Any) -> None:
    assert main(["draw", "--example", "ruin", "--strata", *args, "-o", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 1


def test_help_lists_the_quantities(capsys: Any) -> None:
    try:
        assert main(["draw", "--help"]) == 0
    except SystemExit as stop:  # argparse's help exits; main() returns its status
        assert not stop.code
    text = " ".join(capsys.readouterr().out.split())
    assert "g_star, v_star, rho, h, psi, hitting_times" in text and "--format {svg,png,pdf,tikz,dot}" in text


@pytest.mark.extra("plot")
@pytest.mark.parametrize("quantity", ["g_star", "v_star", "rho", "h", "psi", "hitting_times"])
def test_every_strata_quantity_draws(pyplot: Any, quantity: str, tmp_path: Path) -> None:
    out = tmp_path / "s.png"
    assert main(["draw", "--example", "ruin", "--strata", "--quantity", quantity, "--state", "home", "-o", str(out)]) == 0
    assert out.read_bytes()[:4] == b"\x89PNG"


# -- strata pictures ----------------------------------------------------------------------------------------
@pytest.mark.extra("plot")
def test_a_lower_stratum_with_its_own_value_has_it_written_on_its_line(pyplot: Any) -> None:
    """two-loops: on p = 0 g*(a) = 1 - q (the generic 1/(2 - p) would say 1/2): written on the line and in its
    legend entry; p = 1 keeps the generic form restricted (g* = 1): nothing written there; states by label."""
    strat = exactpte.stratify(exactpte.example("two-loops"))
    ax = strat.plot("g_star", "a")
    written = [t.get_text() for t in ax.texts]
    assert written == ["g*(a) = 1 - q"]
    legend = ax.get_legend_handles_labels()[1]
    assert "p = 0: period 1 → 2; g*(a) = 1 - q" in legend and not any(text.startswith("p = 1") and "g*" in text for text in legend)
    assert ax.get_title() == "g*(a) by stratum"
    (line,) = [ln for ln in ax.lines if ln.get_label().startswith("p = 0:")]
    annotation = ax.texts[0]
    assert annotation.xy in list(zip(line.get_xdata(), line.get_ydata()))  # written at a point of its own line


@pytest.mark.extra("plot")
def test_boundary_lines_are_inside_the_frame(pyplot: Any) -> None:
    strat = exactpte.stratify(exactpte.example("two-loops"))
    ax = strat.plot("rho", 0)
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    for line in ax.lines:
        xs, ys = list(line.get_xdata()), list(line.get_ydata())
        assert all(x0 < x < x1 for x in xs) and all(y0 < y < y1 for y in ys), line.get_label()


@pytest.mark.extra("plot")
def test_a_pole_does_not_flatten_the_colour_scale(pyplot: Any) -> None:
    """h(on) = p/(p + q)^2 has a pole at the origin: the colours are clipped to the 2nd-98th percentiles of the
    map, and the colour bar says so; g* (no pole) keeps its full range and says nothing."""
    import numpy as np

    strat = exactpte.stratify(exactpte.example("two-state-pq"))
    ax = strat.plot("h", "on")
    (image,) = ax.images
    data = np.asarray(image.get_array(), dtype=float)
    values = data[np.isfinite(data)]
    low, high = np.percentile(values, [2, 98])
    assert image.norm.vmin == pytest.approx(low) and image.norm.vmax == pytest.approx(high) and values.max() > 4 * high
    bar = ax.figure.axes[1]
    assert "clipped to its 2nd–98th percentiles" in bar.get_ylabel()
    ax = strat.plot("g_star", "on")
    assert "clipped" not in ax.figure.axes[1].get_ylabel()


@pytest.mark.slow  # a strata picture laid out at several sizes: about 15 s each
@pytest.mark.extra("plot")
@pytest.mark.parametrize("name, size", [("two-loops", "4,3"), ("ruin", "3,3"), ("ruin", "4,6"), ("branching-b", "4,3")])
def test_a_strata_picture_at_any_size_is_whole_or_refused_naming_the_smallest(pyplot: Any, name: str, size: str,
                                                                             tmp_path: Path, capsys: Any) -> None:
    from matplotlib import image as mpimg

    out = tmp_path / "s.png"
    code = main(["draw", "--example", name, "--strata", "--size", size, "-o", str(out)])
    if code == 2:
        message = capsys.readouterr().err
        found = re.search(r"the smallest size of these proportions that can is ([0-9.]+),([0-9.]+)", message)
        assert found is not None and "Traceback" not in message, message
        size = f"{found[1]},{found[2]}"
        assert main(["draw", "--example", name, "--strata", "--size", size, "-o", str(out)]) == 0
    else:
        assert code == 0
    width, height = (float(x) for x in size.split(","))
    assert mpimg.imread(str(out)).shape[:2] == (round(height * 100), round(width * 100))
    from exactpte.plots.common import text_collisions
    from exactpte.plots.strata import plot_strata

    ax = plot_strata(exactpte.stratify(exactpte.example(name)), "rho", 0, size=(width, height))
    assert text_collisions(ax.figure) == ([], [])
