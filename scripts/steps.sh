# Timed steps, shared by .ci/run and scripts/test_matrix.sh (source it).
# `step NAME CMD...` runs CMD and appends "NAME<TAB>seconds<TAB>result" to $TRIPOD_STEP_TIMES, so
# the run can end with one table of where its time went (`step_table`).
: "${TRIPOD_STEP_TIMES:=$(mktemp)}"
export TRIPOD_STEP_TIMES

step() {
  local name=$1 start=$SECONDS status=0
  shift
  echo "=== $name ==="
  "$@" || status=$?
  local result=ok
  if [ "$status" -ne 0 ]; then result="failed (exit $status)"; fi
  printf '%s\t%s\t%s\n' "$name" "$((SECONDS - start))" "$result" >>"$TRIPOD_STEP_TIMES"
  return "$status"
}

# The steps recorded so far, with their seconds, result and the total.
step_table() {
  echo "=== seconds per step ==="
  awk -F'\t' '{ printf "%-34s %6d s  %s\n", $1, $2, $3; total += $2 }
    END { printf "%-34s %6d s  (%.1f min)\n", "total", total, total / 60 }' "$TRIPOD_STEP_TIMES"
}
