#!/usr/bin/env python3
"""SPSA tuning of the evaluation weights by self-play (docs/anytime.md, "Tuning by
self-play").

Each iteration k draws a random sign vector delta (+1/-1 per tuned weight), plays
theta + c_k*delta against theta - c_k*delta in one `giuthi match` at a fixed node budget
without the exact solver (deterministic: the result does not depend on the machine's
load), each opening with both colours, and moves theta along delta by
a_k * (score - 0.5) * 2 / c_k (Spall's SPSA; the gains a_k = a / (A + k)^0.602 and
c_k = c / k^0.101 as in Stockfish's fishtest). The openings change every iteration
(--seed base + k). Every iteration is printed as a line of JSON; the last line is the
final theta, rounded.

usage: GIUTHI=target/release/giuthi scripts/spsa-weights.py START W0 [options]
  START  a start position (`giuthi start --pits 10 --seeds 9`)
  W0     the starting weights, row/capture/mobility/reach/special (e.g. 60/50/20/10/0)
options: --iterations N (40), --openings N (20, so 40 games an iteration),
  --nodes N (2000), --tune 0,1,2,3 (the slots tuned; the others stay), --c 10,10,5,5,5
  (the perturbation of each slot, hundredths of a seed), --a 1.0 (the step, in units of c),
  --seed S (1000), --random-plies P (4)
"""
import argparse
import json
import os
import random
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("start")
    ap.add_argument("w0")
    ap.add_argument("--iterations", type=int, default=40)
    ap.add_argument("--openings", type=int, default=20)
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--tune", default="0,1,2,3")
    ap.add_argument("--c", default="10,10,5,5,5")
    ap.add_argument("--a", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--random-plies", type=int, default=4)
    args = ap.parse_args()
    giuthi = os.environ.get("GIUTHI", "giuthi")
    theta = [float(x) for x in args.w0.split("/")]
    tune = [int(i) for i in args.tune.split(",")]
    c0 = [float(x) for x in args.c.split(",")]
    rng = random.Random(args.seed)
    big_a = args.iterations / 10
    total = [0, 0, 0]
    for k in range(1, args.iterations + 1):
        ck = [c / k**0.101 for c in c0]
        # a_k in units of c_k: the step at k = 1 is `a` times c when the score is 1.
        ak = args.a * (big_a + 1) ** 0.602 / (big_a + k) ** 0.602
        delta = [rng.choice((-1, 1)) if i in tune else 0 for i in range(len(theta))]
        plus = [round(t + ck[i] * delta[i]) for i, t in enumerate(theta)]
        minus = [round(t - ck[i] * delta[i]) for i, t in enumerate(theta)]
        fmt = lambda w: "/".join(str(int(x)) for x in w)
        cmd = [
            giuthi, "match", "--start", args.start,
            "--a", f"engine:nodes={args.nodes},exact=0,weights={fmt(plus)}",
            "--b", f"engine:nodes={args.nodes},exact=0,weights={fmt(minus)}",
            "--openings", str(args.openings), "--random-plies", str(args.random_plies),
            "--seed", str(args.seed + k), "--quiet", "--json",
        ]
        out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        score = r["score"]
        total[0] += r["wins"]
        total[1] += r["losses"]
        total[2] += r["draws"]
        for i in tune:
            theta[i] += ak * (score - 0.5) * 2 * ck[i] * delta[i]
        print(json.dumps({
            "k": k, "plus": fmt(plus), "minus": fmt(minus),
            "w": r["wins"], "l": r["losses"], "d": r["draws"], "score": score,
            "theta": [round(t, 1) for t in theta],
        }), flush=True)
    print(json.dumps({"final": fmt([round(t) for t in theta]), "games": total}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
