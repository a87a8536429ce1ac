"""Regenerate the Storm exports used by ``tests/io/test_storm_files.py`` (run by hand; needs stormpy).

For each model (the DTMCs that stormpy ships in ``stormpy.examples.files`` and
``two_rewards.pm`` beside this script): build it with Storm's exact (rational) builder and
every reward model, export it to DRN with ``stormpy.io.export_to_drn`` (some files compressed),
plus the parametric die (with Storm's ``$`` placeholders), and record Storm's exact long-run average reward ``R{"name"}=? [ LRA ]`` at every state in
``expected.json``: the table of known answers the tests compare exactpte's ``rho`` with,
so the tests need no stormpy.

    python tests/data/storm/make_storm_files.py
"""

import bz2
import gzip
import json
import lzma
import os
import shutil

import stormpy
import stormpy.examples.files as files
import stormpy.io as sio

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = {  # file name -> (PRISM source, compression)
    "die.drn": (os.path.join(files.testfile_dir, "dtmc", "die.pm"), None),
    "leader-3-5.drn": (os.path.join(files.testfile_dir, "dtmc", "leader-3-5.pm"), None),
    "brp-16-2.drn.gz": (os.path.join(files.testfile_dir, "dtmc", "brp-16-2.pm"), gzip),
    "nand-5-2.drn.xz": (os.path.join(files.testfile_dir, "dtmc", "nand-5-2.pm"), lzma),
    "two-rewards.drn.bz2": (os.path.join(HERE, "two_rewards.pm"), bz2),
}


def lra(model, name):
    prop = stormpy.parse_properties(f'R{{"{name}"}}=? [ LRA ]' if name else "R=? [ LRA ]")[0]
    values = stormpy.model_checking(model, prop, only_initial_states=False).get_value_vector()
    return [f"{v.numerator}/{v.denominator}" if v.denominator != 1 else f"{v.numerator}" for v in values]


def parametric_die():
    """The parametric die (stormpy's pdtmc/parametric_die.pm), exported with Storm's placeholders."""
    opts = stormpy.BuilderOptions()
    opts.set_build_all_reward_models()
    src = os.path.join(files.testfile_dir, "pdtmc", "parametric_die.pm")
    model = stormpy.build_model[stormpy.RationalFunction](sio.parse_prism_program(src), options=opts)
    sio.export_to_drn(model, os.path.join(HERE, "parametric-die.drn"))


def main():
    parametric_die()
    expected = {}
    for out, (src, codec) in MODELS.items():
        opts = stormpy.BuilderOptions()
        opts.set_build_all_reward_models()
        model = stormpy.build_model[stormpy.Rational](sio.parse_prism_program(src), options=opts)
        plain = os.path.join(HERE, out.split(".drn")[0] + ".drn")
        sio.export_to_drn(model, plain)
        if codec is not None:
            with open(plain, "rb") as fh, codec.open(os.path.join(HERE, out), "wb") as gz:
                shutil.copyfileobj(fh, gz)
            os.remove(plain)
        expected[out] = {"states": model.nr_states,
                         "rho": {name: lra(model, name) for name in model.reward_models}}
        print(out, model.nr_states, list(model.reward_models))
    with open(os.path.join(HERE, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
