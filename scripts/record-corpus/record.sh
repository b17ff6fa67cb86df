#!/usr/bin/env bash
# Re-records the failure-parser corpus from real tool runs (needs python3+pytest, go, cargo, gcc, cmake, javac+junit5, node, and
# mocha/jest/vitest/jest-junit/typescript/eslint in $JS_RUNNERS/node_modules). Not part of npm test.
# Usage: scripts/record-corpus/record.sh [case-filter]   (truth files are written by hand, never by this script)
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/electron/engine/gates/corpus"
WORK="${RECORD_WORK:-/tmp/rc}"
JS_RUNNERS="${JS_RUNNERS:-/tmp/jsrunners}"
FILTER="${1:-}"
export PATH="$JS_RUNNERS/node_modules/.bin:$PATH"

fresh() { # fresh <project> → copies the project to $WORK/<project> and cd's there
  rm -rf "${WORK:?}/$1"; mkdir -p "$WORK"; cp -r "$HERE/projects/$1" "$WORK/$1"; cd "$WORK/$1" || exit 1
  [ -f package.json ] && ln -s "$JS_RUNNERS/node_modules" node_modules
  return 0
}

# rec <tool/case> <command…>: runs the command (stdout and stderr together, as a gate sees them) and stores the output.
rec() {
  local id="$1"; shift
  if [ -n "$FILTER" ] && [[ "$id" != *"$FILTER"* ]]; then return 0; fi
  mkdir -p "$OUT/$(dirname "$id")"
  bash -c "$*" >"$OUT/$id.txt" 2>&1
  echo $? >"$OUT/$id.exit"
  echo "recorded $id (exit $(cat "$OUT/$id.exit"))"
}

# report <tool/case> <file> <ext>: keeps a report file the last command wrote.
report() {
  if [ -n "$FILTER" ] && [[ "$1" != *"$FILTER"* ]]; then return 0; fi
  cp "$2" "$OUT/$1.report.$3"
}

# crlf <tool/case> <from-case>: the same output with Windows line endings.
crlf() {
  if [ -n "$FILTER" ] && [[ "$1" != *"$FILTER"* ]]; then return 0; fi
  sed 's/$/\r/' "$OUT/$2.txt" >"$OUT/$1.txt"; cp "$OUT/$2.exit" "$OUT/$1.exit"
}

export PYTHONDONTWRITEBYTECODE=1
fresh pytest
rec pytest/default python3 -m pytest -p no:cacheprovider
rec pytest/quiet python3 -m pytest -p no:cacheprovider -q
rec pytest/tb-short python3 -m pytest -p no:cacheprovider --tb=short
rec pytest/tb-long python3 -m pytest -p no:cacheprovider --tb=long
rec pytest/tb-line python3 -m pytest -p no:cacheprovider --tb=line
rec pytest/tb-native python3 -m pytest -p no:cacheprovider --tb=native
rec pytest/summary-ra python3 -m pytest -p no:cacheprovider -rA --tb=no
rec pytest/color python3 -m pytest -p no:cacheprovider --color=yes
rec pytest/junit python3 -m pytest -p no:cacheprovider -q --junitxml=report.xml
report pytest/junit report.xml xml
rec pytest/verbose python3 -m pytest -p no:cacheprovider -v --tb=short
fresh pytest-collect
rec pytest/collect-missing-module python3 -m pytest -p no:cacheprovider
fresh pytest-syntax
rec pytest/collect-syntax-error python3 -m pytest -p no:cacheprovider

fresh unittest
rec unittest/default python3 -m unittest
rec unittest/verbose python3 -m unittest -v
fresh unittest-import
rec unittest/import-missing python3 -m unittest

fresh python-run
rec python/syntax-error python3 main.py

fresh jest
rec jest/default jest --ci
rec jest/color FORCE_COLOR=1 jest --ci --colors
rec jest/json jest --ci --json
rec jest/json-file jest --ci --json --outputFile=report.json
report jest/json-file report.json json
rec jest/junit JEST_JUNIT_OUTPUT_FILE=junit.xml jest --ci --reporters=default --reporters=jest-junit
report jest/junit junit.xml xml
rec jest/npm-test npm test

fresh vitest
rec vitest/default CI=1 vitest run
rec vitest/color FORCE_COLOR=1 vitest run
rec vitest/json CI=1 vitest run --reporter=json
rec vitest/json-file CI=1 vitest run --reporter=default --reporter=json --outputFile.json=report.json
report vitest/json-file report.json json
rec vitest/junit CI=1 vitest run --reporter=default --reporter=junit --outputFile.junit=junit.xml
report vitest/junit junit.xml xml
rec vitest/verbose CI=1 vitest run --reporter=verbose

fresh mocha
rec mocha/spec mocha
rec mocha/tap mocha --reporter tap
rec mocha/color mocha --color

fresh node-test
rec node-test/spec node --test --test-reporter=spec
rec node-test/tap node --test --test-reporter=tap
rec node-test/color FORCE_COLOR=1 node --test --test-reporter=spec

fresh go-test
rec go/test go test ./...
rec go/test-verbose go test -v ./...
rec go/test-json go test -json ./...
# testify from Debian's golang-github-stretchr-testify-dev, in GOPATH mode (no module download).
fresh go-testify
cd src/calc
rec go/testify GO111MODULE=off GOPATH="$WORK/go-testify:/usr/share/gocode" go test .
rec go/testify-json GO111MODULE=off GOPATH="$WORK/go-testify:/usr/share/gocode" go test -json .
fresh go-panic
rec go/panic go test ./...
fresh go-build
rec go/build-error go build ./...
rec go/test-build-error go test ./...
fresh go-vet
rec go/vet go vet ./...
fresh go-missing
rec go/missing-local-package go build ./...

fresh cargo-test
rec cargo/test cargo test --quiet --color=never
rec cargo/test-color cargo test --color=always
fresh cargo-build
rec cargo/build-error cargo build --color=never

fresh gcc
rec c/gcc gcc -Wall -c main.c -o main.o
# ctest: the gate `ratchet init` proposes for CMake, over plain C test executables (a ring buffer whose pop is wrong;
# a string library with a silent failure, a segfault, a timeout and a long test name), then a build error under it.
fresh ctest-ringbuf
cmake -S . -B build >/dev/null
rec ctest/assert-and-message 'cmake --build build && ctest --test-dir build --output-on-failure'
sed -i 's/return r->count; }/return r->count }/' src/ringbuf.c
rec ctest/build-error 'cmake --build build && ctest --test-dir build --output-on-failure'
fresh ctest-strutil
cmake -S . -B build >/dev/null
rec ctest/segfault-timeout-silent 'cmake --build build && ctest --test-dir build --output-on-failure'
fresh javac
rec java/javac javac Shop.java
fresh junit5
JUNIT=/usr/share/java/junit-platform-console-standalone.jar
mkdir -p out && javac -d out -cp "$JUNIT" src/*.java
rec java/junit5-console java -jar "$JUNIT" -cp out --scan-classpath --disable-banner --details=tree --reports-dir=reports
report java/junit5-console reports/TEST-junit-jupiter.xml xml

fresh tsc
rec ts/tsc tsc -p . --pretty false
rec ts/tsc-pretty tsc -p . --pretty true
fresh eslint
rec eslint/stylish eslint src
rec eslint/color eslint --color src

# Very long outputs, cut in the middle by the project's own bounding (16 KB head + 16 KB tail).
cut() {
  if [ -n "$FILTER" ] && [[ "$1" != *"$FILTER"* ]]; then return 0; fi
  (cd "$ROOT" && npx --no-install tsx scripts/record-corpus/bound.ts "$OUT/$1.txt" 16384 16384)
}
fresh pytest-long
rec pytest/long-cut python3 -m pytest -p no:cacheprovider -rfE
cut pytest/long-cut
fresh go-long
rec go/long-cut go test ./...
cut go/long-cut
fresh cargo-long
rec cargo/long-cut cargo test --quiet --color=never
cut cargo/long-cut
fresh junit5
mkdir -p out && javac -d out -cp "$JUNIT" src/*.java
rec java/junit5-flat java -jar "$JUNIT" -cp out --scan-classpath --disable-banner --details=flat

# Windows line endings: the same outputs converted (their truth files say so).
crlf pytest/crlf-default pytest/default
crlf jest/crlf-default jest/default
crlf go/crlf-test go/test
crlf cargo/crlf-test cargo/test

# Held-out cases: projects written after the parsers, recorded once; their truth was written before any parser saw them.
fresh held-pytest
rec held/pytest-class python3 -m pytest -p no:cacheprovider
rec held/pytest-class-short-q python3 -m pytest -p no:cacheprovider -q --tb=short --color=yes
fresh held-pytest-import
rec held/pytest-import-name python3 -m pytest -p no:cacheprovider
fresh held-unittest
rec held/unittest python3 -m unittest -v
fresh held-jest
rec held/jest-nested jest --ci
rec held/jest-nested-json jest --ci --json --outputFile=report.json
report held/jest-nested-json report.json json
fresh held-vitest
rec held/vitest-junit CI=1 vitest run --reporter=default --reporter=junit --outputFile.junit=junit.xml
report held/vitest-junit junit.xml xml
rec held/vitest-color FORCE_COLOR=1 vitest run
fresh held-mocha
rec held/mocha mocha
rec held/mocha-tap mocha --reporter tap
fresh held-node
rec held/node-spec node --test --test-reporter=spec
rec held/node-tap node --test --test-reporter=tap
fresh held-go
rec held/go-verbose go test -v ./...
rec held/go-json go test -json ./...
fresh held-cargo
rec held/cargo cargo test --color=never
fresh held-tsc
rec held/tsc-pretty tsc -p . --pretty true
fresh held-gcc
rec held/gcc gcc -c util.c main.c
fresh held-eslint
rec held/eslint eslint lib
crlf held/crlf-go-verbose held/go-verbose

# Second held-out batch: written and recorded after the first batch's fixes; truth written before any parser ran on it.
fresh h2-pytest
rec held2/pytest-nested python3 -m pytest -p no:cacheprovider -rA --tb=short
rec held2/pytest-nested-junit python3 -m pytest -p no:cacheprovider -q --junitxml=report.xml
report held2/pytest-nested-junit report.xml xml
fresh h2-unittest
rec held2/unittest python3 -m unittest
fresh h2-jest
rec held2/jest-each jest --ci
rec held2/jest-each-junit JEST_JUNIT_OUTPUT_FILE=junit.xml jest --ci --reporters=default --reporters=jest-junit
report held2/jest-each-junit junit.xml xml
fresh h2-vitest
rec held2/vitest-each CI=1 vitest run --reporter=verbose
rec held2/vitest-each-json CI=1 vitest run --reporter=json
fresh h2-node
rec held2/node-subtests-spec node --test --test-reporter=spec
rec held2/node-subtests-tap node --test --test-reporter=tap
fresh h2-mocha
rec held2/mocha mocha
fresh h2-go
rec held2/go-two-packages go test ./...
rec held2/go-two-packages-json go test -json ./...
fresh h2-cargo
rec held2/cargo cargo test --color=never
fresh h2-javac
rec held2/javac javac Order.java
fresh h2-tsc
rec held2/tsc tsc -p .
fresh h2-eslint
rec held2/eslint eslint src
crlf held2/crlf-jest-each held2/jest-each
fresh held-gcc
rec held2/clang clang -c util.c main.c

# Not recorded by this script: gut/run-summary.txt is the project's earlier real GUT run (classify-corpus/gut-fail.txt);
# Godot is installable (godot3-server) but GUT is an addon that needs the network. Maven and Gradle need the network
# for their plugins, so Java is recorded with javac and the JUnit Platform console launcher (Debian's junit5).
# Re-recording changes durations, addresses and PIDs in the outputs; the long-cut cases' truth depends on where the
# 16 KB cut falls, so check it against the new output.

# Third held-out batch: recorded after every fix above; truth written before any parser ran on it.
fresh h3-pytest
rec held3/pytest python3 -m pytest -p no:cacheprovider
fresh h3-unittest
rec held3/unittest python3 -m unittest
fresh h3-jest
rec held3/jest jest --ci
fresh h3-vitest
rec held3/vitest CI=1 vitest run
fresh h3-mocha
rec held3/mocha mocha
rec held3/mocha-tap mocha --reporter tap
fresh h3-node
rec held3/node-spec node --test --test-reporter=spec
fresh h3-go
rec held3/go go test ./...
fresh h3-cargo
rec held3/cargo cargo test --color=never
fresh h3-cpp
rec held3/gpp g++ -c shape.cpp

# Fourth held-out batch: written after every fix above, recorded once; truth written before any parser ran on it.
fresh h4-pytest
rec held4/pytest-long python3 -m pytest -p no:cacheprovider --tb=long
rec held4/pytest-line python3 -m pytest -p no:cacheprovider --tb=line
rec held4/pytest-native python3 -m pytest -p no:cacheprovider --tb=native
rec held4/pytest-q-ra python3 -m pytest -p no:cacheprovider -q -rA --tb=short
rec held4/pytest-color python3 -m pytest -p no:cacheprovider --color=yes
rec held4/pytest-junit python3 -m pytest -p no:cacheprovider -q --tb=no --junitxml=report.xml
report held4/pytest-junit report.xml xml
fresh h4-unittest
rec held4/unittest python3 -m unittest
rec held4/unittest-verbose python3 -m unittest -v
fresh h4-jest
rec held4/jest jest --ci
rec held4/jest-color FORCE_COLOR=1 jest --ci --colors
rec held4/jest-json jest --ci --json
fresh h4-vitest
rec held4/vitest CI=1 vitest run
rec held4/vitest-json-file CI=1 vitest run --reporter=default --reporter=json --outputFile.json=report.json
report held4/vitest-json-file report.json json
rec held4/vitest-junit CI=1 vitest run --reporter=dot --reporter=junit --outputFile.junit=junit.xml
report held4/vitest-junit junit.xml xml
fresh h4-mocha
rec held4/mocha mocha
rec held4/mocha-tap mocha --reporter tap
fresh h4-node
rec held4/node-spec node --test --test-reporter=spec
rec held4/node-tap node --test --test-reporter=tap
fresh h4-go
rec held4/go go test ./...
rec held4/go-verbose go test -v ./...
rec held4/go-json go test -json ./...
fresh h4-cargo
rec held4/cargo-backtrace RUST_BACKTRACE=1 cargo test --no-fail-fast --color=never
rec held4/cargo-color RUST_BACKTRACE=0 cargo test --no-fail-fast --color=always
fresh h4-junit5
mkdir -p out && javac -d out -cp "$JUNIT" src/*.java
rec held4/junit5-tree java -jar "$JUNIT" -cp out --scan-classpath --disable-banner --details=tree --reports-dir=reports
report held4/junit5-tree reports/TEST-junit-jupiter.xml xml
fresh h4-tsc
rec held4/tsc tsc -p .
fresh h4-eslint
rec held4/eslint eslint lib
fresh h4-gcc
rec held4/gcc-color gcc -Wall -fdiagnostics-color=always -c vec.c
fresh h4-rustc
rec held4/rustc cargo build --color=never
fresh h4-gobuild
rec held4/go-build go build ./...
fresh h4-javac
rec held4/javac javac Invoice.java
fresh h4-pysyntax
rec held4/python-syntax python3 run.py deploy
