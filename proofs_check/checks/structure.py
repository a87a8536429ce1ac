"""Structure claims judged against the support graph (``lem:recurrent_decomp`` and the conventions).

Each claimed structural object gets its own key, so a report names the wrong claim:

- ``structure:classes`` — the claimed closed classes are the closed SCCs of the support graph;
- ``structure:transient`` — the claimed transient states are exactly the others;
- ``structure:periods`` — each claimed period is the gcd of the class's cycle lengths;
- ``structure:cyclic_classes`` — the claimed cyclic classes partition each class and every edge
  inside a class goes from ``C_{i,k}`` to ``C_{i,k+1 mod d_i}``;
- ``structure:anchors`` — one anchor per cyclic class, each inside its claimed ``C_{i,k}``;
- ``structure:basis_order`` — basis columns (one per anchor) follow the ``(class, phase)`` order.

The graph is analysed by :class:`proofs_check.algebra.graph.SupportGraph`, independent of exactpte's code.
"""

from __future__ import annotations

from proofs_check.algebra.graph import SupportGraph
from proofs_check.judging.registry import Context, NotClaimed, Outcome, register_check, few


def _graph(ctx: Context) -> SupportGraph:
    return ctx.routes.graph


@register_check("structure:classes", "the claimed closed classes are the closed SCCs of the support graph", kind="structure")
def _classes(ctx: Context) -> Outcome:
    claimed = [sorted(c) for c in ctx.claimed.classes]
    flat = [s for c in claimed for s in c]
    if len(flat) != len(set(flat)):
        return "claimed classes overlap"
    truth = sorted(_graph(ctx).closed_classes())
    if sorted(claimed) == truth:
        return None
    missing = [c for c in truth if c not in claimed]
    wrong = [c for c in claimed if c not in truth]
    return f"claimed classes {few([tuple(c) for c in wrong])} are not closed classes; closed classes not claimed: {few([tuple(c) for c in missing])}"


@register_check("structure:transient", "the claimed transient states are the states of no closed class", kind="structure")
def _transient(ctx: Context) -> Outcome:
    if ctx.claimed.transient is None:
        return NotClaimed("transient")
    recurrent = {s for c in _graph(ctx).closed_classes() for s in c}
    truth = [s for s in range(ctx.chain.n) if s not in recurrent]
    got = sorted(ctx.claimed.transient)
    if got == truth and len(set(ctx.claimed.transient)) == len(ctx.claimed.transient):
        return None
    repeated = sorted({s for s in got if got.count(s) > 1})
    if repeated and set(got) == set(truth):
        return f"transient states listed more than once: {few(repeated)}"
    return (f"recurrent states claimed transient: {few(sorted(set(got) - set(truth)))}; "
            f"transient states not claimed: {few(sorted(set(truth) - set(got)))}")


@register_check("structure:periods", "each claimed period is the gcd of the cycle lengths of its class", kind="structure")
def _periods(ctx: Context) -> Outcome:
    c = ctx.claimed
    if len(c.periods) != len(c.classes):
        return f"{len(c.periods)} periods for {len(c.classes)} claimed classes"
    closed = {tuple(x) for x in _graph(ctx).closed_classes()}
    for i, (members, d) in enumerate(zip(c.classes, c.periods)):
        if tuple(sorted(members)) not in closed:
            return f"claimed class {i} is not a closed class, so its period is undefined"
        true_d = _graph(ctx).period(sorted(members))
        if d != true_d:
            return f"class {i} (smallest state {min(members)}) has period {true_d}, claimed {d}"
    return None


@register_check("structure:cyclic_classes", "the cyclic classes partition each class and one step goes from C_{i,k} to C_{i,k+1 mod d_i}",
       kind="structure")
def _cyclic(ctx: Context) -> Outcome:
    c = ctx.claimed
    g = _graph(ctx)
    if len(c.cyclic_classes) != len(c.classes):
        return f"{len(c.cyclic_classes)} groups of cyclic classes for {len(c.classes)} claimed classes"
    for i, (members, d, cyc) in enumerate(zip(c.classes, c.periods, c.cyclic_classes)):
        if len(cyc) != d:
            return f"class {i} has period {d} but {len(cyc)} claimed cyclic classes"
        phase: dict[int, int] = {}
        for k, part in enumerate(cyc):
            if not part:
                return f"cyclic class C_{{{i},{k}}} is empty"
            for s in part:
                if s in phase:
                    return f"state {s} is in two cyclic classes of class {i} (C_{{{i},{phase[s]}}} and C_{{{i},{k}}})"
                phase[s] = k
        if set(phase) != set(members):
            dropped = sorted(set(members) - set(phase))
            foreign = sorted(set(phase) - set(members))
            return f"cyclic classes of class {i} do not partition it: states left out {few(dropped)}, states not in the class {few(foreign)}"
        for s in members:
            for j in g.succ[s]:
                if j in phase and phase[j] != (phase[s] + 1) % d:
                    return f"edge {s} -> {j} goes from C_{i},{phase[s]} to C_{i},{phase[j]}, expected C_{i},{(phase[s] + 1) % d}"
    return None


@register_check("structure:anchors", "one anchor a_{i,k} in every cyclic class C_{i,k}", kind="structure")
def _anchors(ctx: Context) -> Outcome:
    c = ctx.claimed
    seen = set()
    for j, (i, k, s) in enumerate(c.anchors):
        if not (0 <= i < len(c.cyclic_classes)) or not (0 <= k < len(c.cyclic_classes[i])):
            return f"anchor {j} names C_{{{i},{k}}}, which is not a claimed cyclic class"
        if s not in c.cyclic_classes[i][k]:
            return f"anchor {j} for C_{{{i},{k}}} is state {s}, which is not in C_{{{i},{k}}}"
        if (i, k) in seen:
            return f"C_{i},{k} has two anchors"
        seen.add((i, k))
    expected = {(i, k) for i, d in enumerate(c.periods) for k in range(d)}
    if seen != expected:
        return f"cyclic classes without an anchor: {sorted(expected - seen)}"
    return None


@register_check("structure:basis_order", "basis columns follow the (class, phase) order of their anchors", kind="structure")
def _basis_order(ctx: Context) -> Outcome:
    c = ctx.claimed
    order = [(i, k) for i, k, _ in c.anchors]
    expected = [(i, k) for i, d in enumerate(c.periods) for k in range(d)]
    if order != expected:
        return f"anchors (and basis columns) are in the order {order[:6]}, expected (class, phase) order {expected[:6]}"
    return None
