"""Regenerate the parametric benchmark data (run by hand; needs stormpy):
``python benchmarks/data/make_parametric.py``.

Storm's parametric example DTMCs (``stormpy.examples.files``, ``pdtmc/``: parametric_die,
herman5, brp16_2, crowds3_5), larger members of the same families (brp with N = 64; crowds with
5 good members), and a periodic two-parameter chain of 37 states written here (a 30-state
transient path, forward with probability p, backward with q, staying with 1 - p - q, feeding a
3-cycle and a 4-cycle at two phases each).  Each model is built with Storm's parametric builder and exported to DRN (gzip) with one
reward model ``share``: the indicator of a state formula (the label ``share``, added to the
PRISM source) whose long-run share is a non-trivial rational function.  The reward is written
from the label, not built by Storm's reward builder (which gives the deadlock states, fixed with
self-loops, a reward of 0), so ``LRA=? [ "share" ]`` is the property that matches it.
``parametric.json`` lists file, parameters, states and the Storm property.
"""

import gzip
import json
import os
import re

import stormpy
import stormpy.examples.files as files
import stormpy.io

HERE = os.path.dirname(os.path.abspath(__file__))
PDTMC = os.path.join(files.testfile_dir, "pdtmc")

PERIODIC_37 = """dtmc
const double p;
const double q;
module walk
  s : [0..36] init 0;
  [] s=0 -> p : (s'=1) + q : (s'=33) + (1-p-q) : (s'=35);
  [] s>0 & s<29 -> p : (s'=s+1) + q : (s'=s-1) + (1-p-q) : (s'=s);
  [] s=29 -> p : (s'=30) + q : (s'=28) + (1-p-q) : (s'=31);
  [] s=30 -> (s'=31);
  [] s=31 -> (s'=32);
  [] s=32 -> (s'=30);
  [] s=33 -> (s'=34);
  [] s=34 -> (s'=35);
  [] s=35 -> (s'=36);
  [] s=36 -> (s'=33);
endmodule
"""

MODELS = {  # name -> (PRISM source file or text, constant overrides, the state formula of the reward)
    "parametric_die": ("parametric_die.pm", {}, "s=7 & d=1"),
    "herman5": ("herman5.pm", {}, "x1=0"),
    "periodic37": (PERIODIC_37, {}, "s=30 | s=33 | s=35 | (s<30 & mod(s,3)=0)"),
    "brp16_2": ("brp16_2.pm", {}, "srep=1"),
    "crowds3_5": ("crowds3_5.pm", {}, "observe0 > 1"),
    "brp64_2": ("brp16_2.pm", {"N": 64}, "srep=1"),
    "crowds5_5": ("crowds3_5.pm", {"CrowdSize": 5}, "observe0 > 1"),
}


def source(src, overrides, formula):
    if "\n" in src:
        text = src
    else:
        with open(os.path.join(PDTMC, src)) as fh:
            text = fh.read()
    for const, value in overrides.items():
        text, k = re.subn(rf"(const\s+int\s+{const}\s*=\s*)\d+", rf"\g<1>{value}", text)
        assert k == 1, (src, const)
    return text + f'\nlabel "share" = {formula};\n'


def with_share_reward(drn: str) -> str:
    """The DRN text with one state reward model ``share``: 1 on the states labelled ``share``."""
    out = []
    lines = drn.splitlines()
    for k, line in enumerate(lines):
        if line.startswith("@reward_models") or (k and lines[k - 1].startswith("@reward_models")):
            continue  # Storm's (empty) reward model list
        if line.startswith("@nr_states"):
            out += ["@reward_models", "share "]
        m = re.match(r"state (\d+)(.*)$", line)
        if m:
            labels = m.group(2).split()
            line = f"state {m.group(1)} [{1 if 'share' in labels else 0}]{m.group(2)}"
        out.append(line)
    return "\n".join(out) + "\n"


def main():
    index = {}
    for name, (src, overrides, formula) in MODELS.items():
        path = os.path.join(HERE, name + ".pm")
        with open(path, "w") as fh:
            fh.write(source(src, overrides, formula))
        prog = stormpy.parse_prism_program(path)
        os.remove(path)
        opts = stormpy.BuilderOptions()
        opts.set_build_all_labels()
        model = stormpy.build_model[stormpy.RationalFunction](prog, options=opts)
        tmp = os.path.join(HERE, name + ".drn")
        stormpy.io.export_to_drn(model, tmp)
        with open(tmp) as fh:
            text = with_share_reward(fh.read())
        os.remove(tmp)
        with gzip.open(os.path.join(HERE, name + ".drn.gz"), "wt") as gz:
            gz.write(text)
        params = sorted(str(v.name) for v in model.collect_probability_parameters())
        index[name] = {"file": name + ".drn.gz", "formula": formula, "property": 'LRA=? [ "share" ]',
                       "states": model.nr_states, "params": params}
        print(name, model.nr_states, "states", params, flush=True)
    with open(os.path.join(HERE, "parametric.json"), "w") as fh:
        json.dump(index, fh, indent=1)


if __name__ == "__main__":
    main()
