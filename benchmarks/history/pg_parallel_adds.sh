#!/usr/bin/env bash
# A team on one PostgreSQL history (docs/history.md, "PostgreSQL: a team's
# database"): JOBS `etbench history add` processes started at once, each
# adding its own results file (mlp and toy_cnn of the default suite, 2
# iterations), TRIALS times on a fresh empty database (the first uses race
# to create the schema) and TRIALS times on a fresh database whose schema
# exists (the adds race to insert the same new metrics). Prints per trial
# how many adds exited 0 and how many runs the database holds; a correct
# etbench shows JOBS/JOBS and JOBS every time. Starts its own throw-away
# server (unix socket only, as the postgres user under root, like
# tests/history/postgres_server.cc) and removes it at the end. Usage:
#   bash benchmarks/history/pg_parallel_adds.sh [JOBS=8] [TRIALS=3]
# ETBENCH=path/to/etbench compares another build (default build/tools/etbench).
set -euo pipefail
cd "$(dirname "$0")/../.."
jobs=${1:-8}
trials=${2:-3}
etbench=$(realpath "${ETBENCH:-build/tools/etbench}")
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
dir=$(mktemp -d /tmp/etbpg-adds-XXXXXX)
as_pg=()
if [ "$(id -u)" = 0 ]; then
  chown postgres: "$dir"
  as_pg=(runuser -u postgres --)
fi
stop() {
  "${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate -w stop > /dev/null 2>&1 || true
  rm -rf "$dir"
}
trap stop EXIT
"${as_pg[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres --no-sync > "$dir/initdb.log" 2>&1
"${as_pg[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
  -o "-c listen_addresses='' -k $dir -c fsync=off" start > /dev/null

results=$(mktemp -d /tmp/etbench-adds-XXXXXX)
trap 'stop; rm -rf "$results"' EXIT
for k in $(seq "$jobs"); do
  "$etbench" run configs/default.yaml --model mlp --model toy_cnn --iterations 2 --warmup 0 \
    --repetitions 1 --output-dir "$results/r$k" --quiet > /dev/null
done

trial() {  # trial NAME SCHEMA_FIRST
  local db=$1
  "${as_pg[@]}" "$bin/createdb" -h "$dir" -U postgres "$db"
  local url="postgresql:///$db?host=$dir&user=postgres"
  if [ "$2" = 1 ]; then "$etbench" history list --history "$url" > /dev/null; fi
  local pids=() ok=0
  for k in $(seq "$jobs"); do
    "$etbench" history add "$results/r$k/results.json" --commit "c$k" --branch main \
      --history "$url" > /dev/null 2> "$results/$db-$k.err" &
    pids+=($!)
  done
  for p in "${pids[@]}"; do if wait "$p"; then ok=$((ok + 1)); fi; done
  local runs
  runs=$("$bin/psql" -X -At -h "$dir" -U postgres -d "$db" -c "SELECT count(*) FROM runs" \
           2> /dev/null || echo "none")
  local first_error
  first_error=$(cat "$results/$db"-*.err | grep -v ': added ' | head -1 | cut -c1-140 || true)
  echo "$3: $ok/$jobs adds exit 0, $runs runs stored${first_error:+; e.g. $first_error}"
}
for t in $(seq "$trials"); do trial "empty$t" 0 "empty database, trial $t"; done
for t in $(seq "$trials"); do trial "schema$t" 1 "schema exists, new metrics, trial $t"; done
