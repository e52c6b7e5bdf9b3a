#!/usr/bin/env bash
# Checks the dependency rules of docs/architecture.md on the sources (run by
# ctest as LayeringTest; also by hand: bash scripts/check_layering.sh).
#
#  1. A library's sources include only public headers (etbench/<lib>/...) of
#     the libraries it may use, and its own private headers; never a header
#     that lives in another library's src/.
#  2. No CMake target outside a library adds that library's src/ to its
#     include path.
#  3. Tests and benchmarks include public headers and test helpers only.
#  4. nlohmann-json is base's: no other library includes <nlohmann/...> or
#     links nlohmann_json (JSON is written by base's json_writer.h and read
#     by its json_reader.h). Tests may use it to check what base wrote.
#
# Prints one line per violation ("file: what") and exits 1 when there is any.
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$root"

# library directory → the etbench/<x>/ public header sets it may include.
declare -A allowed=(
  [base]="base"
  [inspector]="base inspector"
  [stats]="base inspector stats"
  [compare]="base inspector stats compare"
  [results]="base inspector compare results"
  [runner_protocol]="base runner_protocol"
  [runtime]="base inspector runner_protocol runtime"
  [harness]="base inspector stats compare results runner_protocol harness runtime"
  [history]="base inspector stats compare results history"
  [reports]="base inspector stats compare results reports"
  [cli]="base inspector stats compare results runner_protocol harness runtime history reports cli"
  [tools]="base inspector stats compare results runner_protocol harness runtime history reports cli"
)
# Private headers some tests and benchmarks still include (internal units of
# the reference runtime, tested below its public API). Each is a known debt.
known_private_test_includes="
tests/runtime/exec/prng_test.cc:exec/prng.h
tests/runtime/exec/program_test.cc:exec/program.h
tests/runtime/exec/reference_delegate_test.cc:exec/reference_delegate.h
tests/runtime/exec/slowdown_test.cc:exec/method.h
tests/runtime/exec/slowdown_test.cc:exec/program.h
tests/runtime/model_etrecord_test.cc:model/op_schema.h
benchmarks/runtime/model_benchmark.cc:exec/method.h
benchmarks/runtime/model_benchmark.cc:exec/program.h
"
known_private_include_dirs="
tests/runtime/CMakeLists.txt:runtime/src
benchmarks/runtime/CMakeLists.txt:runtime/src
"

# Every source file of the tree (git's list; a plain walk outside a clone).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  all_files=$(git ls-files --cached --others --exclude-standard)
else
  all_files=$(find . -type f -not -path './build*' -not -path './.git/*' | sed 's|^\./||')
fi
files_matching() {
  grep -E "$1" <<<"$all_files" || true
}

failures=0
fail() {
  echo "$1"
  failures=$((failures + 1))
}

# The library directory that owns `file` (longest match), or "".
owner_of() {
  local file=$1 best="" lib
  for lib in "${!allowed[@]}"; do
    if [[ $file == "$lib/"* && ${#lib} -gt ${#best} ]]; then best=$lib; fi
  done
  echo "$best"
}

# Quoted includes of `file`, one per line.
includes_of() {
  sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$1"
}

# Whether `header` (not etbench/...) names a file inside some library's src/.
private_path_of() {
  local header=$1 dir
  for dir in */src; do
    if [[ -f "$dir/$header" ]]; then
      echo "$dir/$header"
      return
    fi
  done
}

# 1. Library sources.
while IFS= read -r file; do
  lib=$(owner_of "$file")
  [[ -n $lib ]] || continue
  while IFS= read -r header; do
    if [[ $header == etbench/* ]]; then
      set_name=${header#etbench/}
      set_name=${set_name%%/*}
      ok=0
      for a in ${allowed[$lib]}; do [[ $a == "$set_name" ]] && ok=1; done
      # Generated headers (etdump_generated.h) belong to the inspector.
      if [[ $ok == 0 ]]; then
        fail "$file: includes $header, but $lib may not use etbench::$set_name"
      fi
    elif [[ $header == *../* ]]; then
      fail "$file: includes $header (a relative path out of its directory)"
    else
      # A private header must be the library's own (its src/ or next to it).
      if [[ ! -f "$lib/src/$header" && ! -f "$(dirname "$file")/$header" ]]; then
        found=$(private_path_of "$header")
        if [[ -n $found ]]; then
          fail "$file: includes $found, a private header of another library"
        fi
      fi
    fi
  done < <(includes_of "$file")
done < <(files_matching '\.(cc|h)$' | grep -v -E '^(tests|benchmarks|fuzz|build)/')

# 2. Include paths into another library's src/.
while IFS= read -r cmake; do
  dir=$(dirname "$cmake")
  while IFS= read -r path; do
    lib=${path%/src}
    if [[ $dir != "$lib" && $dir != "$lib/"* ]] &&
       ! grep -qx "$cmake:$path" <<<"$known_private_include_dirs"; then
      fail "$cmake: adds $path (private to $lib) to an include path"
    fi
  done < <(grep -o 'PROJECT_SOURCE_DIR}/[A-Za-z0-9_/]*/src\b' "$cmake" | sed 's/PROJECT_SOURCE_DIR}\///')
done < <(files_matching '(CMakeLists\.txt|\.cmake)$')

# 2b. Link dependencies: a library's CMake links only libraries of its set.
for lib in "${!allowed[@]}"; do
  cmake="$lib/CMakeLists.txt"
  [[ -f $cmake ]] || continue
  while IFS= read -r dep; do
    ok=0
    for a in ${allowed[$lib]}; do [[ $a == "$dep" ]] && ok=1; done
    [[ $ok == 1 ]] || fail "$cmake: links etbench::$dep, but $lib may not use it"
  done < <(grep -v '^[[:space:]]*#' "$cmake" | grep -o 'etbench::[a-z_]*' | sed 's/etbench:://' | sort -u)
done

# 3. Tests and benchmarks: public headers and test helpers only.
while IFS= read -r file; do
  while IFS= read -r header; do
    [[ $header == etbench/* ]] && continue
    found=$(private_path_of "$header")
    [[ -n $found ]] || continue
    # A helper next to the test (tests/<area>/x.h) shadows nothing private.
    [[ -f "$(dirname "$file")/$header" ]] && continue
    if ! grep -qx "$file:$header" <<<"$known_private_test_includes"; then
      fail "$file: includes $found, a private header (tests use public headers)"
    fi
  done < <(includes_of "$file")
done < <(files_matching '^(tests|benchmarks|fuzz)/.*\.(cc|h)$')

# 4. nlohmann-json only inside base.
while IFS= read -r file; do
  lib=$(owner_of "$file")
  [[ -n $lib && $lib != base ]] || continue
  if grep -qE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]nlohmann/' "$file"; then
    fail "$file: includes nlohmann-json (JSON goes through base's json_writer.h / json_reader.h)"
  fi
done < <(files_matching '\.(cc|h)$' | grep -v -E '^(tests|benchmarks|fuzz|build)/')
for lib in "${!allowed[@]}"; do
  cmake="$lib/CMakeLists.txt"
  [[ $lib != base && -f $cmake ]] || continue
  if grep -v '^[[:space:]]*#' "$cmake" | grep -q 'nlohmann_json'; then
    fail "$cmake: links nlohmann_json, which only base may use"
  fi
done

if [[ $failures -gt 0 ]]; then
  echo "layering: $failures violation(s) of docs/architecture.md"
  exit 1
fi
echo "layering: OK"
