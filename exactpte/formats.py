r"""Other tools' chain formats: Storm's DRN (written exactly) — the bridge to peers.

>>> import exactpte
>>> to_drn(exactpte.example("periodic")).splitlines()[10:16]
['state 0 [1] init', '\taction 0', '\t\t1 : 1', 'state 1 [0]', '\taction 0', '\t\t0 : 1']
"""

from __future__ import annotations

from .model import MarkovRewardProcess

__all__ = ["to_drn"]


def to_drn(chain: MarkovRewardProcess, *, reward_name: str = "r") -> str:
    """Storm's explicit DRN text for ``chain``: rationals written as ``p/q``, state rewards in brackets.

    Every state is marked ``init`` only for state 0; Storm computes values for all states.
    """
    lines = [
        "@type: DTMC",
        "@parameters",
        "",
        "@reward_models",
        reward_name,
        "@nr_states",
        str(chain.n),
        "@nr_choices",
        str(chain.n),
        "@model",
    ]
    for s, (cols, vals) in enumerate(chain.rows()):
        lines.append(f"state {s} [{chain.r[s]}]" + (" init" if s == 0 else ""))
        lines.append("\taction 0")
        for j, q in zip(cols, vals):
            lines.append(f"\t\t{j} : {q}")
    return "\n".join(lines) + "\n"
