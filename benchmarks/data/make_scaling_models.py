"""Generate the PRISM benchmark DTMCs that Storm's examples do not ship (run by hand; needs stormpy):
``python benchmarks/data/make_scaling_models.py [NAME ...]`` (all of them by default).

- ``herman9``: Herman's self-stabilising ring [Her90] with 9 processes and a fair coin, every one of
  the 2^9 = 512 configurations initial (PRISM's ``herman9.pm``, synchronous, no initialisation flags);
  reward 1 per token-holding configuration step (``tokens``: the number of tokens).
- ``leader6_3``: the synchronous leader election of Itai and Rodeh (PRISM's ``leader_sync6_3.pm``),
  6 processes, values in 0..2, written out from Storm's ``leader-3-5.pm`` by renaming; reward
  ``num_rounds`` (one per pick).
- ``leader5_4``: the same with 5 processes and values in 0..3 (PRISM's ``leader_sync5_4.pm``; 4,244 states).

All are built with Storm's exact (rational) builder and exported to DRN (gzip).  They are the
scaling cases of ``proofs-check chain`` (``tests/proofs_check/checks/test_verdict_scaling.py``).
"""

import gzip
import os
import shutil

import stormpy

HERE = os.path.dirname(os.path.abspath(__file__))


def herman(n: int) -> str:
    lines = ["dtmc", "", "const double p = 0.5;", "", "module process1", "  x1 : [0..1];",
             f"  [step] (x1=x{n}) -> p : (x1'=0) + 1-p : (x1'=1);",
             f"  [step] !(x1=x{n}) -> (x1'=x{n});", "endmodule", ""]
    for i in range(2, n + 1):
        lines.append(f"module process{i} = process1 [ x1=x{i}, x{n}=x{i - 1} ] endmodule")
    tokens = " + ".join(f"(x{i}=x{i - 1 if i > 1 else n}?1:0)" for i in range(1, n + 1))
    lines += ["", "init true endinit", "", 'rewards "tokens"', f"  true : {tokens};", "endrewards", ""]
    return "\n".join(lines)


def leader(n: int, k: int) -> str:
    u = "|".join(f"u{i}" for i in range(1, n + 1))
    picks = "\n\t             + ".join(f"1/K : (s1'=1) & (p1'={v}) & (v1'={v}) & (u1'=true)" for v in range(k))
    text = f"""dtmc
const int N = {n};
const int K = {k};
module counter
  c : [1..N-1];
  [read] c<N-1 -> 1:(c'=c+1);
  [read] c=N-1 -> 1:(c'=c);
  [done] {u} -> 1:(c'=c);
  [retry] !({u}) -> 1:(c'=1);
  [loop] s1=3 -> 1:(c'=c);
endmodule
module process1
  s1 : [0..3];
  u1 : bool;
  v1 : [0..K-1];
  p1 : [0..K-1];
  [pick] s1=0 -> {picks};
  [read] s1=1 &  u1 & c<N-1 -> 1:(u1'=(p1!=v2)) & (v1'=v2);
  [read] s1=1 & !u1 & c<N-1 -> 1:(u1'=false) & (v1'=v2) & (p1'=0);
  [read] s1=1 &  u1 & c=N-1 -> 1:(s1'=2) & (u1'=(p1!=v2)) & (v1'=0) & (p1'=0);
  [read] s1=1 & !u1 & c=N-1 -> 1:(s1'=2) & (u1'=false) & (v1'=0);
  [done] s1=2 -> 1:(s1'=3) & (u1'=false) & (v1'=0) & (p1'=0);
  [retry] s1=2 -> 1:(s1'=0) & (u1'=false) & (v1'=0) & (p1'=0);
  [loop] s1=3 -> 1:(s1'=3);
endmodule
"""
    for i in range(2, n + 1):
        nxt = i + 1 if i < n else 1
        text += f"module process{i} = process1 [ s1=s{i},p1=p{i},v1=v{i},u1=u{i},v2=v{nxt} ] endmodule\n"
    text += 'rewards "num_rounds"\n  [pick] true : 1;\nendrewards\n'
    return text


def export(name: str, text: str) -> None:
    path = os.path.join(HERE, name + ".pm")
    with open(path, "w") as fh:
        fh.write(text)
    opts = stormpy.BuilderOptions()
    opts.set_build_all_reward_models()
    model = stormpy.build_model[stormpy.Rational](stormpy.parse_prism_program(path), options=opts)
    os.remove(path)
    drn = os.path.join(HERE, name + ".drn")
    stormpy.io.export_to_drn(model, drn)
    with open(drn, "rb") as fh, gzip.open(drn + ".gz", "wb") as gz:
        shutil.copyfileobj(fh, gz)
    os.remove(drn)
    print(name, model.nr_states, "states")
    from make_models import update_index

    update_index({name: {"file": name + ".drn.gz", "reward": REWARDS[name], "property": f'R{{"{REWARDS[name]}"}}=? [ LRA ]',
                         "states": model.nr_states}})


REWARDS = {"herman9": "tokens", "leader6_3": "num_rounds", "leader5_4": "num_rounds"}
MODELS = {"herman9": lambda: herman(9), "leader6_3": lambda: leader(6, 3), "leader5_4": lambda: leader(5, 4)}

if __name__ == "__main__":
    import sys

    for name in sys.argv[1:] or MODELS:
        export(name, MODELS[name]())
