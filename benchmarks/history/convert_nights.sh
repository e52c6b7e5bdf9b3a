#!/usr/bin/env bash
# Converts recorded nights (record_nights.sh's ROOT/<history>/nightNN/
# <variant>/results.json) into the committed compact form: one TSV per
# history under benchmarks/history/nights/ (night_data.h: per run and
# metric the repetitions' medians and the run's lower decile).
#   bash benchmarks/history/convert_nights.sh /work/nights/data [build]
set -euo pipefail
root=$1
build=${2:-build}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for h in "$root"/*/; do
  name=$(basename "$h")
  grep -q " done " "$h/conditions.txt" 2>/dev/null || { echo "skip $name (still recording)"; continue; }
  mkdir -p "$tmp/$name"
  ln -s "$h" "$tmp/$name/$name"
  "$build/benchmarks/history/night_replay" --convert "$tmp/$name" "$here/nights/$name.tsv"
  echo "$name: $(grep -c '^R' "$here/nights/$name.tsv") runs"
done
