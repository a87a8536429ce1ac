"""Each edge's label beside its own edge (matplotlib, measured in pixels by the figure's renderer).

A label is placed at the first candidate place, along its edge from the middle outwards, on the edge or pushed
off it to either side, whose box

- stays inside the axes, meets no node and no text already written;
- lets no other edge through, and lies nearer its own edge than any other (so it reads as that edge's);

failing that, the first place that only meets other edges; failing that, it is left out (and counted).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from exactpte.plots.geometry import Edge, Geometry

__all__ = ["place_edge_labels", "label_owner"]

T_ALONG = (0.5, 0.42, 0.58, 0.34, 0.66, 0.26, 0.74, 0.18, 0.82)


def _candidates(e: Edge, to_px: Any, half: tuple[float, float]) -> list[tuple[float, float]]:
    """Label centres (pixels) for edge ``e``, best first."""
    w, h = half
    if e.source == e.target:  # a loop: beyond its far end, then beside it
        apex = to_px(e.at(0.5))
        centre = to_px(e.points[0])
        ux, uy = apex[0] - (centre[0] + to_px(e.points[-1])[0]) / 2, apex[1] - (centre[1] + to_px(e.points[-1])[1]) / 2
        norm = math.hypot(ux, uy) or 1.0
        ux, uy = ux / norm, uy / norm
        reach = abs(ux) * w + abs(uy) * h + 2
        return [(apex[0] + ux * reach, apex[1] + uy * reach), (apex[0] - uy * (w + 4), apex[1] + ux * (h + 4)),
                (apex[0] + uy * (w + 4), apex[1] - ux * (h + 4)), (apex[0], apex[1])]
    out = []
    for t in T_ALONG:
        x, y = to_px(e.at(t))
        x2, y2 = to_px(e.at(min(1.0, t + 0.01)))
        x1, y1 = to_px(e.at(max(0.0, t - 0.01)))
        tx, ty = x2 - x1, y2 - y1
        norm = math.hypot(tx, ty) or 1.0
        nx, ny = ty / norm, -tx / norm
        push = abs(nx) * w + abs(ny) * h + 2
        for d in (0.0, push, -push, push + 2 * h, -push - 2 * h):
            out.append((x + d * nx, y + d * ny))
    return out


def label_owner(centre: tuple[float, float], curves: Any) -> int:
    """The index of the curve (an ``(E, K, 2)`` array of pixel samples) nearest to ``centre``."""
    import numpy as np

    d = np.hypot(curves[:, :, 0] - centre[0], curves[:, :, 1] - centre[1]).min(axis=1)
    return int(np.argmin(d))


def place_edge_labels(ax: Any, g: Geometry, labels: Sequence[tuple[Edge, str]], fontsize: float) -> int:
    """Write each ``(edge, text)`` beside its edge (see the module docstring); returns how many were left out."""
    import numpy as np

    fig: Any = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    to_px = ax.transData.transform
    r_px = g.radius * abs(to_px((1, 0))[0] - to_px((0, 0))[0]) + 1
    boxes = [(x - r_px, y - r_px, x + r_px, y + r_px) for x, y in (to_px(p) for p in g.pos.values())]
    boxes += [tuple(t.get_window_extent(renderer).extents) for t in ax.texts if t.get_text().strip()]
    taken = np.array(boxes, dtype=float).reshape(-1, 4)
    curves = np.array([to_px(e.samples(48)) for e in g.edges], dtype=float).reshape(len(g.edges), -1, 2)
    extents = (curves.min(axis=1), curves.max(axis=1))  # each curve's box
    index = {(e.source, e.target): k for k, e in enumerate(g.edges)}
    frame = ax.bbox.extents
    missing = 0
    for e, text in labels:
        artist = ax.text(0, 0, text, fontsize=fontsize, ha="center", va="center", color="#333333", zorder=5,
                         bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.9})
        extent = artist.get_window_extent(renderer)
        half = (extent.width / 2 + 1.5, extent.height / 2 + 1.5)
        own = index[(e.source, e.target)]
        place = _best(_candidates(e, to_px, half), half, frame, taken, curves, extents, own)
        if place is None:
            artist.remove()
            missing += 1
            continue
        artist.set_position(tuple(ax.transData.inverted().transform(place)))
        taken = np.vstack([taken, (place[0] - half[0], place[1] - half[1], place[0] + half[0], place[1] + half[1])])
    return missing


def _best(candidates: Sequence[tuple[float, float]], half: tuple[float, float], frame: Any, taken: Any, curves: Any,
          extents: tuple[Any, Any], own: int) -> tuple[float, float] | None:
    """The first candidate free of nodes and texts, letting no other edge through and owned by its edge; else
    the first free of nodes and texts; else ``None``.  (Only the curves whose boxes come near are looked at.)"""
    import numpy as np

    fallback = None
    low, high = extents
    for cx, cy in candidates:
        x0, y0, x1, y1 = cx - half[0], cy - half[1], cx + half[0], cy + half[1]
        if x0 < frame[0] or y0 < frame[1] or x1 > frame[2] or y1 > frame[3]:
            continue
        if np.any((taken[:, 0] < x1) & (taken[:, 2] > x0) & (taken[:, 1] < y1) & (taken[:, 3] > y0)):
            continue
        if fallback is None:
            fallback = (cx, cy)
        near = np.flatnonzero((low[:, 0] < x1) & (high[:, 0] > x0) & (low[:, 1] < y1) & (high[:, 1] > y0))
        near = near[near != own]
        sub = curves[near]
        if np.any((sub[:, :, 0] > x0) & (sub[:, :, 0] < x1) & (sub[:, :, 1] > y0) & (sub[:, :, 1] < y1)):
            continue
        mine = float(np.hypot(curves[own, :, 0] - cx, curves[own, :, 1] - cy).min())
        # the curves that could come nearer than its own: those whose box, grown by that distance, holds the centre
        reach = np.union1d(np.flatnonzero((low[:, 0] - mine <= cx) & (high[:, 0] + mine >= cx) & (low[:, 1] - mine <= cy)
                                          & (high[:, 1] + mine >= cy)), [own])
        if int(reach[label_owner((cx, cy), curves[reach])]) == own:
            return cx, cy
    return fallback
