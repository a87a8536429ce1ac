"""A fill-reducing elimination order for the transient block (reverse Cuthill–McKee)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence


__all__ = ["band_order"]


def band_order(nodes: Sequence[int], neighbours: Callable[[int], Iterable[int]]) -> list[int]:
    """The nodes in reverse Cuthill–McKee order: breadth first from a node of least degree, the
    neighbours of each node by increasing degree, then reversed (ties by node number, so the
    order is canonical).  A dense elimination of a block taken in this order fills little outside
    the band (a transient path keeps a narrow band whatever the states' numbering in the file).

    ``neighbours(s)`` gives the successors of ``s``; edges count in both directions, and only
    edges between ``nodes``.

    Examples
    --------
    >>> path = {0: [3], 3: [0, 1], 1: [3, 2], 2: [1]}      # 0 - 3 - 1 - 2, numbered out of order
    >>> band_order([0, 1, 2, 3], path.__getitem__)
    [2, 1, 3, 0]
    """
    inside = set(nodes)
    adjacent: dict[int, set[int]] = {s: set() for s in nodes}
    for s in nodes:
        for j in neighbours(s):
            if j in inside and j != s:
                adjacent[s].add(j)
                adjacent[j].add(s)

    def degree_then_number(v: int) -> tuple[int, int]:
        return len(adjacent[v]), v

    order: list[int] = []
    seen: set[int] = set()
    for start in sorted(nodes, key=degree_then_number):  # one start for each connected part
        if start in seen:
            continue
        seen.add(start)
        queue, head = [start], 0
        while head < len(queue):
            v = queue[head]
            head += 1
            for w in sorted(adjacent[v] - seen, key=degree_then_number):
                seen.add(w)
                queue.append(w)
        order += queue
    return order[::-1]


