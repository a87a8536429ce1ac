"""Printed size and time of the full parametric decomposition, plain and factored (run by hand).

``python benchmarks/bench_factored.py [--models periodic37 brp64_2 ...] [--plain]``: for each
benchmark model in ``benchmarks/data`` (the parametric DRN files of ``bench_symbolic.py``'s Storm
table) the full decomposition (θ, g*, v*, ρ, h, ψ and the basis; no P∞) is computed once, then
printed as JSON in the factored form (``to_json(factored=True)``: every distinct denominator named
once; a periodic chain's transient entries as sums of parts over the cyclotomic blocks' denominators)
and, with ``--plain``, in the plain form.  Printed (CPU seconds, ``time.process_time``, and the load average
when the print starts): the time to compute, the time of the first print (the assumptions' factoring
included), the time to print,
the characters printed, the terms printed (numerators plus each named denominator once; plain: every
numerator and denominator) and the number of distinct denominators.  Results go in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

import exactpte  # noqa: E402
from exactpte.fields.printing import TextCache  # noqa: E402
from exactpte.results.quantities import QUANTITY_KEYS  # noqa: E402

DATA = os.path.join(os.path.dirname(__file__), "data")
MODELS = ("parametric_die", "herman5", "periodic37", "brp16_2", "crowds3_5", "brp64_2", "crowds5_5")
FULL = tuple(k for k in QUANTITY_KEYS if k not in ("P_inf", "hitting_times"))


def _terms(data: dict[str, object], factored: bool) -> int:
    """Terms printed: every ``+``/``-``-separated monomial of every entry (names count as one)."""
    total = 0

    def count(x: object) -> None:
        nonlocal total
        if isinstance(x, str):
            total += x.count(" + ") + x.count(" - ") + 1
        elif isinstance(x, list):
            for y in x:
                count(y)
        elif isinstance(x, dict):
            for y in x.values():
                count(y)

    for key in (*FULL, "denominators") if factored else FULL:
        count(data.get(key, []))
    return total


def run(name: str, plain: bool) -> dict[str, object]:
    chain = exactpte.load(os.path.join(DATA, f"{name}.drn.gz"))
    dec = exactpte.decompose(chain)
    t0 = time.process_time()
    for key in FULL:
        getattr(dec, key)
    row: dict[str, object] = {"model": name, "states": chain.n, "compute_s": time.process_time() - t0,
                              "load": open("/proc/loadavg").read().split()[0] if os.path.exists("/proc/loadavg") else ""}
    t0 = time.process_time()
    dec.to_dict(only=FULL, factored=True)  # the assumptions (factors of the denominators) and other caches, once
    row["first_print_s"] = time.process_time() - t0
    dec.field._texts = TextCache()  # each form prints its entries afresh
    t0 = time.process_time()
    text = dec.to_json(only=FULL, factored=True)
    row["factored_s"] = time.process_time() - t0
    row["factored_chars"] = len(text)
    data = json.loads(text)
    row["factored_terms"] = _terms(data, True)
    row["denominators"] = len(data["denominators"])
    if plain:
        dec.field._texts = TextCache()
        t0 = time.process_time()
        text = dec.to_json(only=FULL)
        row["plain_s"] = time.process_time() - t0
        row["plain_chars"] = len(text)
        row["plain_terms"] = _terms(json.loads(text), False)
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", nargs="+", default=list(MODELS))
    ap.add_argument("--plain", action="store_true", help="print the plain form too (slow on the big models)")
    args = ap.parse_args()
    for name in args.models:
        print(json.dumps(run(name, args.plain)), flush=True)


if __name__ == "__main__":
    main()
