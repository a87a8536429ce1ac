"""A chain's picture as text for papers: a standalone TikZ picture and Graphviz DOT (no matplotlib needed).

Both carry the geometry of :mod:`exactpte.plots.geometry` (the same positions and edge curves as the PNG,
SVG and PDF pictures):

- :func:`to_tikz`: a ``standalone`` LaTeX document (``pdflatex`` it, or paste the ``tikzpicture`` into a
  paper): one ``\\node`` per state, named ``s<k>`` and labelled, filled with its class's colour (transient
  grey, anchors with a thick rim); one ``\\draw`` per transition, along the same curve, its probability in
  math mode beside it; each class's ring and header;
- :func:`to_dot`: a ``digraph`` with one ``subgraph cluster_F<i>`` per closed class (its states inside, its
  period in the label), transient states outside, each edge labelled with its probability; every node
  carries its position (``pos="x,y!"``, points), so ``neato -n2 -Tsvg`` draws this picture, and ``dot -Tsvg``
  draws Graphviz's own layout of the same graph.

Examples
--------
>>> import exactpte
>>> tex = to_tikz(exactpte.example("ruin"))
>>> tex.count(r"\\node[state"), tex.count(r"\\draw[edge]")
(4, 6)
>>> dot = to_dot(exactpte.example("ruin"))
>>> dot.count("subgraph cluster_"), dot.count(" -> ")
(1, 6)
"""

from __future__ import annotations

from typing import Any

from exactpte.graph.structure import Structure
from exactpte.graph.view import anchor_list
from exactpte.plots.common import CLASS_COLOURS
from exactpte.plots.geometry import Edge, Geometry, chain_geometry

__all__ = ["to_tikz", "to_dot", "tex_text"]

TRANSIENT_COLOUR = "#bbbbbb"


def _parts(obj: Any, edge_labels: bool = True) -> tuple[Any, Structure, set[int], Geometry]:
    """``(chain, structure, anchors, geometry)`` of a chain or a result (anything with ``chain``, ``structure``
    and ``anchors``)."""
    structure = getattr(obj, "structure", None)
    if not isinstance(structure, Structure):
        from exactpte.errors import UsageError

        raise UsageError(f"a picture takes a chain or a decomposition, got {type(obj).__name__}")
    chain, anchors = (obj.chain, {s for _, _, s in anchor_list(obj.anchors)}) if hasattr(obj, "anchors") else (obj, set())
    g = chain_geometry(structure, chain.support, [chain.label(s) for s in range(chain.n)], edge_labels=edge_labels)
    return chain, structure, anchors, g


_TEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{",
                "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "…": r"\ldots{}"}


def tex_text(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``x_1`` as ``x\\_1``)."""
    return "".join(_TEX_SPECIAL.get(ch, ch) for ch in text)


def _xy(p: tuple[float, float]) -> str:
    return f"({p[0]:.3f}, {p[1]:.3f})"


def _controls(e: Edge) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The two cubic control points of ``e`` (a quadratic arc raised to a cubic, the same curve); ``None`` for a line."""
    pts = e.points
    if len(pts) == 2:
        return None
    if len(pts) == 3:
        (ax, ay), (cx, cy), (bx, by) = pts
        return (ax + 2 * (cx - ax) / 3, ay + 2 * (cy - ay) / 3), (bx + 2 * (cx - bx) / 3, by + 2 * (cy - by) / 3)
    return pts[1], pts[2]


def _side(e: Edge) -> str:
    """``swap`` when the curve bends to the right of its direction (its label goes on the outer side)."""
    (x1, y1), (x2, y2) = e.points[0], e.points[-1]
    cx, cy = e.points[1] if len(e.points) > 2 else e.points[0]
    return ", swap" if (cx - x1) * (y2 - y1) - (cy - y1) * (x2 - x1) > 0 else ""


def to_tikz(obj: Any, *, edge_labels: bool = True, standalone: bool = True) -> str:
    """The chain's picture (a chain, or a result with its anchors) as TikZ (see the module docstring): a
    ``standalone`` document, or the ``tikzpicture`` alone (``standalone=False``)."""
    chain, S, anchors, g = _parts(obj, edge_labels)
    colours = [CLASS_COLOURS[i % len(CLASS_COLOURS)] for i in range(len(S.classes))]
    out = [rf"\definecolor{{class{i}}}{{HTML}}{{{colour[1:].upper()}}}" for i, colour in enumerate(colours)]
    out.append(rf"\definecolor{{transient}}{{HTML}}{{{TRANSIENT_COLOUR[1:].upper()}}}")
    out += [f"% exactpte draw: {chain.n} states, {len(S.classes)} closed class(es); the same layout as the PNG/SVG/PDF",
           r"\begin{tikzpicture}[x=" + f"{g.scale:.3f}in, y={g.scale:.3f}in, >={{Stealth[length=5pt, width=3.5pt]}},",
           rf"  state/.style={{circle, draw, minimum size={2 * g.radius * g.scale:.3f}in, inner sep=0pt, line width=0.4pt}},",
           r"  anchor state/.style={state, line width=1.6pt},",
           r"  edge/.style={->, draw=black!60, line width=0.5pt},",
           r"  prob/.style={font=\fontsize{7}{8}\selectfont, fill=white, inner sep=1pt, auto},",
           r"  header/.style={font=\fontsize{8}{9.5}\selectfont}]"]
    for i, (cx, cy, r) in enumerate(g.rings):
        if len(S.classes[i]) > 1:
            out.append(rf"\path[draw=class{i}, draw opacity=0.22, line width=5pt] {_xy((cx, cy))} circle[radius={r:.3f}];")
    for s in range(chain.n):
        fill = f"class{S.class_of[s]}" if S.class_of[s] >= 0 else "transient"
        style = "anchor state" if s in anchors else "state"
        font = rf"font=\fontsize{{{g.fonts[s]:g}}}{{{g.fonts[s] * 1.2:.1f}}}\selectfont"
        out.append(rf"\node[{style}, fill={fill}, {font}] (s{s}) at {_xy(g.pos[s])} {{{tex_text(g.labels[s])}}};")
    entries = {(i, j): q for i, j, q in chain.edges()}
    for e in g.edges:
        controls = _controls(e)
        path = f"(s{e.source}) -- (s{e.target})" if controls is None else \
            f"(s{e.source}) .. controls {_xy(controls[0])} and {_xy(controls[1])} .. (s{e.target})"
        label = f" node[prob, pos=0.5{_side(e)}] {{${chain.field.to_latex(entries[(e.source, e.target)])}$}}" if edge_labels else ""
        out.append(rf"\draw[edge] {path}{label};")
    for i, (x, y) in enumerate(g.headers):
        out.append(rf"\path {_xy((x, y))} node[header, anchor=south] {{$F_{{{i}}}$ (period {S.periods[i]})}};")
    out.append(r"\end{tikzpicture}")
    body = "\n".join(out)
    if not standalone:
        return body + "\n"
    return "\n".join([r"\documentclass[tikz, border=4pt]{standalone}", r"\usepackage{amsmath}", r"\usetikzlibrary{arrows.meta}",
                      r"\begin{document}", body, r"\end{document}"]) + "\n"


def _dot_string(text: str) -> str:
    """``text`` as a DOT double-quoted string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def to_dot(obj: Any, *, edge_labels: bool = True) -> str:
    """The chain's picture (a chain, or a result with its anchors) as Graphviz DOT (see the module docstring)."""
    chain, S, anchors, g = _parts(obj, edge_labels)
    points = 72 * g.scale
    look = f'shape=circle, style=filled, fixedsize=true, width={2 * g.radius * g.scale:.2f}, fontname="Helvetica", fontsize=8'

    def node(s: int, indent: str) -> str:
        colour = CLASS_COLOURS[S.class_of[s] % len(CLASS_COLOURS)] if S.class_of[s] >= 0 else TRANSIENT_COLOUR
        x, y = g.pos[s]
        rim = ", penwidth=2.2" if s in anchors else ""
        return (f"{indent}s{s} [label={_dot_string(chain.label(s))}, fillcolor={_dot_string(colour)}, "
                f'pos="{x * points:.1f},{y * points:.1f}!", {look}{rim}];')

    out = [f"// exactpte draw: {chain.n} states, {len(S.classes)} closed class(es); positions in points (pos=...!):",
           "// neato -n2 -Tsvg draws this layout, dot -Tsvg Graphviz's own; one statement a state and a transition",
           "digraph chain {",
           '  outputorder=edgesfirst; fontname="Helvetica"; fontsize=10;']
    for i, members in enumerate(S.classes):
        colour = CLASS_COLOURS[i % len(CLASS_COLOURS)]
        out += [f"  subgraph cluster_F{i} {{",
                f'    label={_dot_string(f"F{i} (period {S.periods[i]})")}; color={_dot_string(colour)}; style=rounded;']
        out += [node(s, "    ") for s in members]
        out.append("  }")
    out += [node(s, "  ") for s in S.transient]
    entries = {(i, j): q for i, j, q in chain.edges()}
    for e in g.edges:
        label = f"label={_dot_string(chain.field.to_text(entries[(e.source, e.target)]))}, " if edge_labels else ""
        out.append(f'  s{e.source} -> s{e.target} [{label}color="#666666", fontname="Helvetica", fontsize=8, arrowsize=0.6];')
    out.append("}")
    return "\n".join(out) + "\n"
