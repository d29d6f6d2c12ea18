#!/usr/bin/env bash
# Wall time of `giuthi bestmove POSITION --movetime T` over a file of positions (one a
# line): prints each run's wall seconds (the whole process, as a user waits: start, table
# allocation, exit) and the answer's own `seconds` (from the start of thinking), and at the
# end the count, mean and max of each and how many exceeded T + 0.2 s. Used for issue 13's "a move within the time + 0.2 s" on Kiothi
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
  out=$("$GIUTHI" bestmove "$pos" --movetime "$t" --json --quiet || true)
  e=$(date +%s.%N)
  mv=$(sed -n 's/.*"move":"\([^"]*\)".*/\1/p' <<< "$out")
  secs=$(sed -n 's/.*"seconds":\([0-9.e-]*\).*/\1/p' <<< "$out")
  echo "$(echo "$e - $s" | bc -l | xargs printf '%.3f')	${secs:-0}	$mv	$pos"
done < "$file" | awk -F'\t' -v t="$t" '
  { print; n++; sum += $1; in_sum += $2; if ($1 > max) { max = $1; worst = $4 } if ($2 > in_max) { in_max = $2; in_worst = $4 }
    if ($1 > t + 0.2) over++; if ($2 > t + 0.2) in_over++; if ($3 == "") nomove++ }
  END { printf "positions %d; process wall: mean %.3f s, max %.3f s (%s), over %.1f s: %d; answer seconds: mean %.3f s, max %.3f s (%s), over %.1f s: %d; no move: %d\n",
    n, sum / n, max, worst, t + 0.2, over, in_sum / n, in_max, in_worst, t + 0.2, in_over, nomove }'
