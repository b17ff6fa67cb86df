#!/usr/bin/env bash
# Records what test runners print when they run no tests (corpus/zero-tests/), for the "the gate ran no tests" check.
# Needs python3+pytest, go, cargo, node, and jest/vitest/mocha in $JS_RUNNERS/node_modules. Not part of npm test.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/electron/engine/gates/corpus/zero-tests"
WORK="${RECORD_WORK:-/tmp/rc}"
JS_RUNNERS="${JS_RUNNERS:-/tmp/jsrunners}"
export PATH="$JS_RUNNERS/node_modules/.bin:$PATH" PYTHONDONTWRITEBYTECODE=1
mkdir -p "$OUT"
fresh() {
  rm -rf "${WORK:?}/$1"; mkdir -p "$WORK"; cp -r "$HERE/projects/$1" "$WORK/$1"; cd "$WORK/$1" || exit 1
  [ -f package.json ] && ln -s "$JS_RUNNERS/node_modules" node_modules
  return 0
}
rec() { local id="$1"; shift; bash -c "$*" >"$OUT/$id.txt" 2>&1; echo $? >"$OUT/$id.exit"; echo "recorded $id (exit $(cat "$OUT/$id.exit"))"; }
fresh zero-pytest
rec pytest python3 -m pytest -p no:cacheprovider
rec pytest-junit python3 -m pytest -p no:cacheprovider -q --junitxml=report.xml
cp report.xml "$OUT/pytest-junit.report.xml"
fresh zero-js
rec jest jest --ci
rec jest-json jest --ci --json
rec vitest CI=1 vitest run
fresh zero-go
rec go go test ./...
rec go-json go test -json ./...
fresh zero-cargo
rec cargo cargo test --quiet --color=never
rec cargo-verbose cargo test --color=never
fresh zero-node
rec node-test node --test --test-reporter=spec
rec node-tap node --test --test-reporter=tap
fresh zero-mocha
rec mocha mocha
rec mocha-empty-dir mocha nothing-here
fresh zero-none
rec jest-no-files jest --ci
rec vitest-no-files CI=1 vitest run
rec node-no-files node --test --test-reporter=spec
fresh zero-pytest
rec unittest python3 -m unittest
