"""``proofs-check result`` on a factored result: a name table whose written-out text would dwarf the file is
refused by name, before anything is expanded; a real factored result is read as before."""

from __future__ import annotations

import json
import time

import exactpte
from proofs_check.cli import main


def test_a_factored_result_that_would_explode_is_refused(tmp_path, capsys):
    # one 100,000-digit name used by every entry of an 82-state result: 1,000 times the file once written out
    chain = exactpte.example("paper-benchmark")
    data = json.loads(exactpte.decompose(chain).to_json(factored=True))
    data["denominators"] = {"D1": "9" * 100_000}
    for key in ("rho", "h", "g_star", "v_star", "psi"):
        data[key] = ["1/D1"] * chain.n
    data["basis"] = [["1/D1"] * len(row) for row in data["basis"]]
    path, chain_path = tmp_path / "claim.json", tmp_path / "chain.json"
    path.write_text(json.dumps(data))
    exactpte.dump(chain, chain_path)
    t = time.process_time()
    assert main(["result", str(path), "--chain", str(chain_path)]) == 2
    assert "more than 64 times its own" in capsys.readouterr().err
    assert time.process_time() - t < 10  # refused before the expansion (a hang guard)


def test_a_real_factored_result_is_still_judged(tmp_path, capsys):
    chain = exactpte.example("branching")
    path, chain_path = tmp_path / "claim.json", tmp_path / "chain.json"
    path.write_text(exactpte.decompose(chain).to_json(factored=True))
    exactpte.dump(chain, chain_path)
    assert main(["result", str(path), "--chain", str(chain_path)]) == 0
