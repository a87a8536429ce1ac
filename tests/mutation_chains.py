"""Chains the mutation suite corrupts and the conventions suite re-labels: built-in examples plus a few
hand-made ones with periodic classes, transient branching and transient self-loops."""

import exactpte
from exactpte import MarkovRewardProcess
from proofs_check import from_decomposition


def chain_and_claim(name):
    chain = exactpte.example(name) if name in exactpte.EXAMPLES else CHAINS[name]
    return chain, from_decomposition(exactpte.decompose(chain))


CHAINS = {
    # periodic classes, transient branching, a transient self-loop (non-trivial solves)
    "rich": MarkovRewardProcess.from_edges(
        8,
        [(0, 1, 1), (1, 0, 1), (2, 3, 1), (3, 4, 1), (4, 2, "1/2"), (4, 5, "1/2"), (5, 3, 1),
         (6, 6, "1/3"), (6, 1, "1/3"), (6, 7, "1/3"), (7, 2, "1/2"), (7, 0, "1/2")],
        [1, 0, 2, 0, 5, 1, 0, -1],
    ),
}
