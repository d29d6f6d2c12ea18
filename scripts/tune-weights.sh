#!/bin/bash
# Coordinate search on the evaluation weights by self-play at fixed depth (deterministic).
# usage: scripts/tune-weights.sh START DEPTH OPENINGS W0 ROUNDS   (GIUTHI=path of the binary)
# Adopts a candidate (one weight halved or doubled) that scores at least 0.56 against the
# current weights at a fixed depth without the exact solver (docs/anytime.md, Tuning).
G=${GIUTHI:-target/release/giuthi}
START="$1"; DEPTH=$2; OPS=$3; W="$4"; ROUNDS=$5
IFS=/ read -a w <<< "$W"
for r in $(seq 1 $ROUNDS); do
  for i in 0 1 2 3 4; do
    for f in 0.5 2; do
      cand=("${w[@]}")
      v=${w[$i]}
      if [ "$v" = 0 ]; then nv=$(python3 -c "print(20 if $f>1 else -20)"); else nv=$(python3 -c "print(int(round($v*$f)))"); fi
      cand[$i]=$nv
      C=$(IFS=/; echo "${cand[*]}"); B=$(IFS=/; echo "${w[*]}")
      out=$($G match --start "$START" --a engine:depth=$DEPTH,exact=0,weights=$C --b engine:depth=$DEPTH,exact=0,weights=$B --openings $OPS --random-plies 6 --seed $((r*100+i)) --quiet --json)
      s=$(echo "$out" | python3 -c "import json,sys; v=json.load(sys.stdin); print(v['score'], v['wins'], v['draws'], v['losses'], v['elo'], v['elo_error'])")
      echo "round $r slot $i: $C vs $B: $s"
      score=$(echo $s | cut -d' ' -f1)
      if python3 -c "import sys; sys.exit(0 if $score >= 0.56 else 1)"; then w=("${cand[@]}"); echo "  adopt $C"; break; fi
    done
  done
done
echo "final $(IFS=/; echo "${w[*]}")"
