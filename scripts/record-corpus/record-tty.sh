#!/usr/bin/env bash
# Records test runners as they print on a terminal with colour forced on (FORCE_COLOR=1, through a pseudo-terminal made
# by util-linux `script`): colours, cursor moves and carriage-return redraws, the shape that reached the agent in issue 29.
# Needs vitest in $VITEST_RUNNERS/node_modules, jest in $JEST_RUNNERS/node_modules, python3+pytest, cargo and go.
# Usage: scripts/record-corpus/record-tty.sh [case-filter]   (truth files are written by hand, never by this script)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/electron/engine/gates/corpus/tty"
WORK="${RECORD_WORK:-/tmp/rc-tty}"
VITEST_RUNNERS="${VITEST_RUNNERS:-$ROOT}"
JEST_RUNNERS="${JEST_RUNNERS:-/tmp/jsrunners}"
FILTER="${1:-}"
mkdir -p "$OUT"

fresh() { # fresh <project> [runners] → copies the project to $WORK/<project> and cd's there
  rm -rf "${WORK:?}/$1"; mkdir -p "$WORK"; cp -r "$HERE/projects/$1" "$WORK/$1"; cd "$WORK/$1" || exit 1
  [ -n "${2:-}" ] && ln -s "$2/node_modules" node_modules
  return 0
}

# tty <case> <command…>: runs the command on a pseudo-terminal 120 columns wide, colour forced, and keeps what it printed.
tty() {
  local id="$1"; shift
  if [ -n "$FILTER" ] && [[ "$id" != *"$FILTER"* ]]; then return 0; fi
  COLUMNS=120 LINES=40 FORCE_COLOR=1 TERM=xterm-256color script -qec "stty cols 120 rows 40; $*" /dev/null >"$OUT/$id.txt" 2>&1
  echo $? >"$OUT/$id.exit"
  echo "recorded tty/$id (exit $(cat "$OUT/$id.exit"))"
}

fresh vitest "$VITEST_RUNNERS"
# vitest 5 needs Node 22: the one the project brings (node_modules/node).
tty vitest "PATH=$VITEST_RUNNERS/node_modules/node/bin:\$PATH node_modules/.bin/vitest run"
fresh jest "$JEST_RUNNERS"
tty jest "node_modules/.bin/jest"
export PYTHONDONTWRITEBYTECODE=1
fresh pytest
tty pytest "python3 -m pytest -p no:cacheprovider"
fresh cargo-test
tty cargo "cargo test"
fresh go-test
tty go "go test ./..."
