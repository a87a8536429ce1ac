"""Regenerate the real-model benchmark data (run by hand; needs stormpy):
``python benchmarks/data/make_models.py``.

Storm's example DTMCs (``stormpy.examples.files``: die, leader-3-5, brp-16-2, nand-5-2,
crowds-5-5) and larger members of the same families (brp with N = 64, MAX = 4; nand with
K = 4; crowds with 6 runs), each built with Storm's exact (rational) builder and exported to
DRN (gzip).  Models without a reward model get one from a label in the PRISM source (crowds:
``observe0 > 1``, the attacker has seen member 0 more than once), so every model has a
long-run average reward.  ``models.json`` lists file, reward model and Storm property.
"""

import gzip
import json
import os
import re
import shutil

import stormpy
import stormpy.examples.files as files

HERE = os.path.dirname(os.path.abspath(__file__))
DTMC = os.path.join(files.testfile_dir, "dtmc")
CROWDS_REWARD = '\nrewards "observed"\n  observe0 > 1 : 1;\nendrewards\n'

MODELS = {  # name -> (source file, constant overrides, text appended, reward model)
    "die": ("die.pm", {}, "", "coin_flips"),
    "leader-3-5": ("leader-3-5.pm", {}, "", "num_rounds"),
    "brp-16-2": ("brp-16-2.pm", {}, "", ""),
    "brp-64-4": ("brp-16-2.pm", {"N": 64, "MAX": 4}, "", ""),
    "nand-5-2": ("nand-5-2.pm", {}, "", ""),
    "nand-5-4": ("nand-5-2.pm", {"K": 4}, "", ""),
    "crowds-5-5": ("crowds-5-5.pm", {}, CROWDS_REWARD, "observed"),
    "crowds-6-5": ("crowds-5-5.pm", {"TotalRuns": 6}, CROWDS_REWARD, "observed"),
}


def source(name, overrides, extra):
    with open(os.path.join(DTMC, name)) as fh:
        text = fh.read()
    for const, value in overrides.items():
        text, k = re.subn(rf"(const\s+int\s+{const}\s*=\s*)\d+", rf"\g<1>{value}", text)
        assert k == 1, (name, const)
    return text + extra


def main():
    index = {}
    for name, (src, overrides, extra, reward) in MODELS.items():
        path = os.path.join(HERE, name + ".pm")
        with open(path, "w") as fh:
            fh.write(source(src, overrides, extra))
        opts = stormpy.BuilderOptions()
        opts.set_build_all_reward_models()
        model = stormpy.build_model[stormpy.Rational](stormpy.parse_prism_program(path), options=opts)
        os.remove(path)
        drn = os.path.join(HERE, name + ".drn")
        stormpy.io.export_to_drn(model, drn)
        with open(drn, "rb") as fh, gzip.open(drn + ".gz", "wb") as gz:
            shutil.copyfileobj(fh, gz)
        os.remove(drn)
        prop = f'R{{"{reward}"}}=? [ LRA ]' if reward else "R=? [ LRA ]"
        index[name] = {"file": name + ".drn.gz", "reward": reward, "property": prop, "states": model.nr_states}
        print(name, model.nr_states, "states")
    update_index(index)


def update_index(entries):
    """Write ``entries`` into ``models.json``, keeping the entries of the other generator (make_scaling_models.py)."""
    path = os.path.join(HERE, "models.json")
    index = {}
    if os.path.exists(path):
        with open(path) as fh:
            index = json.load(fh)
    index.update(entries)
    with open(path, "w") as fh:
        json.dump(index, fh, indent=1)


if __name__ == "__main__":
    main()
