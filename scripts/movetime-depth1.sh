#!/usr/bin/env bash
# N runs (default 20) of `bestmove --movetime 0.1 --threads 1` on the README's slow endgame
# (issue 13 leftover): each run's process wall, move, exact, depth, margin, eval, nodes;
# at the end the max wall and how many answered from depth 1.
#   scripts/movetime-depth1.sh target/release/giuthi 20
G=$1; N=${2:-20}
P="giuthi 0,0,0,1,0,0,1,0/1,0,0,2,1,0,1,1 S 1,4"
for i in $(seq $N); do
  s=$(date +%s.%N)
  out=$($G bestmove "$P" --movetime 0.1 --threads 1 --json --quiet)
  e=$(date +%s.%N)
  w=$(echo "$e - $s" | bc -l)
  echo "$(printf '%.3f' $w) $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["move"], d["exact"], d.get("depth"), d.get("margin"), d.get("eval"), d["nodes"])')"
done | awk '{print; n++; if ($1>max) max=$1; if ($4=="1") d1++; if ($3=="True") ex++} END {printf "runs %d max wall %.3f depth1 %d exact %d\n", n, max, d1, ex}'
