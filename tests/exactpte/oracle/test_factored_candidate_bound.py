"""A factored candidate for ``exactpte check`` (``"denominators"`` and ``"p/D1"`` entries) is written out only when
its written-out text stays within 64 times its own (as ``proofs-check result`` allows): an 82 KB candidate naming a
50,000-digit denominator 4,000 times took 240 MB to write out before any entry was judged (issue 36)."""

from __future__ import annotations

import json
import tracemalloc

import pytest

import exactpte
from exactpte.cli.commands import main
from exactpte.results.factored import expand


def test_a_candidate_whose_names_would_explode_is_refused_before_it_is_written_out(tmp_path, capsys):
    chain = exactpte.example("branching")
    exactpte.dump(chain, tmp_path / "chain.json")
    data = {"denominators": {"D1": "7" * 50_000}, "g_star": ["1/D1"] * chain.n, "junk": ["1/D1"] * 4_000}
    (tmp_path / "cand.json").write_text(json.dumps(data))
    tracemalloc.start()
    code = main(["check", str(tmp_path / "cand.json"), "--chain", str(tmp_path / "chain.json")])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert code == 2 and "more than 64 times its own" in capsys.readouterr().err
    assert peak < 60 * 2**20  # written out: 200 million characters


def test_expand_counts_before_it_builds_and_still_reads_a_real_answer():
    with pytest.raises(ValueError, match="64 times"):
        expand({"denominators": {"D1": "9" * 100_000}, "h": ["1/D1"] * 1_000})
    dec = exactpte.decompose(exactpte.example("two-state-pq"))
    d = json.loads(dec.to_json(factored=True))
    assert [dec.field.read_result(t) for t in expand(d)["h"]] == list(dec.h)


def test_an_npz_candidate_that_decompresses_hugely_is_refused_before_it_is_read(tmp_path, capsys):
    # 195 KB on disk, 25 million zeros (200 MB) once read: 1.6 GB and 100 s before it was judged the wrong length
    import numpy as np

    chain = exactpte.example("branching")
    exactpte.dump(chain, tmp_path / "chain.json")
    np.savez_compressed(tmp_path / "bomb.npz", rho=np.zeros(25_000_000))
    tracemalloc.start()
    code = main(["check", str(tmp_path / "bomb.npz"), "--chain", str(tmp_path / "chain.json")])
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    err = capsys.readouterr().err
    assert code == 2 and "bytes uncompressed" in err and "cannot read" not in err
    assert peak < 60 * 2**20
    np.savez(tmp_path / "fine.npz", rho=np.array([float(x) for x in exactpte.decompose(chain).rho]))
    assert main(["check", str(tmp_path / "fine.npz"), "--chain", str(tmp_path / "chain.json")]) == 0
