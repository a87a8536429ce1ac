"""What a picture shows, read back from its SVG alone (no knowledge of how it was drawn): the canvas, each state's
disc (``<g id="state-s">``) and each edge's curve (``<g id="edge-i-j">``), and the measures the picture tests use:
states outside the canvas, edges that pass through a node they do not join."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

_GROUP = re.compile(r'<g id="(state|edge)-([0-9]+)(?:-([0-9]+))?">(.*?)</g>', re.DOTALL)
_PATH = re.compile(r'<path d="([^"]*)"')
_TOKEN = re.compile(r"[MLCQZmlcqz]|-?[0-9]*\.?[0-9]+(?:e-?[0-9]+)?")


def _curves(d: str) -> list[list[tuple[float, float]]]:
    """The segments of an SVG path (absolute M, L, C, Q, Z), each as its control points."""
    tokens = _TOKEN.findall(d)
    out: list[list[tuple[float, float]]] = []
    k, cmd, here, start = 0, "", (0.0, 0.0), (0.0, 0.0)
    need = {"M": 1, "L": 1, "C": 3, "Q": 2}
    while k < len(tokens):
        if tokens[k] in "MLCQZmlcqz":
            cmd = tokens[k].upper()
            k += 1
            if cmd == "Z":
                out.append([here, start])
                here = start
                continue
        pts = [(float(tokens[k + 2 * m]), float(tokens[k + 2 * m + 1])) for m in range(need[cmd])]
        k += 2 * need[cmd]
        if cmd == "M":
            here = start = pts[0]
        else:
            out.append([here, *pts])
            here = pts[-1]
    return out


def _point(seg: list[tuple[float, float]], t: float) -> tuple[float, float]:
    pts = list(seg)
    while len(pts) > 1:
        pts = [((1 - t) * a[0] + t * b[0], (1 - t) * a[1] + t * b[1]) for a, b in zip(pts, pts[1:])]
    return pts[0]


@dataclass
class Picture:
    width: float
    height: float
    nodes: dict[int, tuple[float, float, float, float]]  # state -> x0, y0, x1, y1 of its disc
    edges: dict[tuple[int, int], list[tuple[float, float]]]  # (i, j) -> points along its line (the arrow head left out)

    def outside(self) -> list[int]:
        """States whose disc reaches outside the canvas."""
        return [s for s, (x0, y0, x1, y1) in self.nodes.items()
                if x0 < -0.5 or y0 < -0.5 or x1 > self.width + 0.5 or y1 > self.height + 0.5]

    def through_nodes(self) -> list[tuple[int, int, int]]:
        """``(i, j, s)``: edge ``i -> j`` enters the disc of a node ``s`` it does not join (by a point, 0.5 pt in)."""
        hits = []
        for (i, j), points in self.edges.items():
            for s, (x0, y0, x1, y1) in self.nodes.items():
                if s in (i, j):
                    continue
                cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
                if any(math.hypot(px - cx, py - cy) < r - 0.5 for px, py in points):
                    hits.append((i, j, s))
        return hits


def read_svg(text: str) -> Picture:
    """The canvas, the states' discs and the edges' curves of an SVG written by ``exactpte draw``."""
    head = re.search(r'<svg[^>]*width="([0-9.]+)pt" height="([0-9.]+)pt"', text)
    assert head is not None, "no <svg width=... height=...>"
    nodes: dict[int, tuple[float, float, float, float]] = {}
    edges: dict[tuple[int, int], list[tuple[float, float]]] = {}
    for kind, a, b, body in _GROUP.findall(text):
        paths = _PATH.findall(body)
        assert paths, f"{kind}-{a} has no path"
        segments = _curves(paths[0])
        if kind == "state":
            xs = [p[0] for seg in segments for p in seg]
            ys = [p[1] for seg in segments for p in seg]
            nodes[int(a)] = (min(xs), min(ys), max(xs), max(ys))
        else:
            edges[(int(a), int(b))] = [_point(seg, t / 32) for seg in segments for t in range(33)]
    return Picture(float(head[1]), float(head[2]), nodes, edges)
