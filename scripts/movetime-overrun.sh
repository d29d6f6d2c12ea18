#!/usr/bin/env bash
# Wall time of `giuthi bestmove POSITION --movetime T` over a file of positions (one a
# line): prints each run's wall seconds and, at the end, the count, mean, max and how many
# exceeded T + 0.2 s. Used for issue 13's "a move within the time + 0.2 s" on Kiothi
# (docs/anytime.md, "Kiothi: endless sowings and the clock").
#
#   GIUTHI=target/release/giuthi scripts/movetime-overrun.sh positions.txt 0.1
#
# Random mid-game Kiothi positions for it (the openings of a random-vs-random match):
#   giuthi match --start "$(giuthi start --game kiothi)" --a random --b random \
#     --openings 70 --random-plies 16 --seed 16 --max-plies 1 --quiet --games g.tsv
#   grep -v '^#' g.tsv | cut -f7 | sort -u > positions.txt
set -euo pipefail
GIUTHI=${GIUTHI:-giuthi}
file=$1
t=${2:-0.1}
while IFS= read -r pos; do
  [ -z "$pos" ] && continue
  s=$(date +%s.%N)
  mv=$("$GIUTHI" bestmove "$pos" --movetime "$t" --quiet || true)
  e=$(date +%s.%N)
  echo "$(echo "$e - $s" | bc -l | xargs printf '%.3f')	$mv	$pos"
done < "$file" | awk -F'\t' -v t="$t" '
  { print; n++; sum += $1; if ($1 > max) { max = $1; worst = $3 } if ($1 > t + 0.2) over++; if ($2 == "") nomove++ }
  END { printf "positions %d, mean %.3f s, max %.3f s (%s), over %.1f s: %d, no move: %d\n", n, sum / n, max, worst, t + 0.2, over, nomove }'
