#!/usr/bin/env bash
# Re-records the classifier's environment-or-code corpus (electron/engine/failures/classify-corpus/) from real tool runs:
# missing modules with the attempt's diff beside them (<case>.diff, `git diff` of the change), network refusals from
# Ratchet's own sandbox proxy, DNS and connection failures, TLS failures against an untrusted certificate chain, and
# registry errors. Hosts are made-up corporate ones (*.corp.example): a refusal never needs the real registry.
# Needs node+npm, python3 with pytest and venv, go, cargo (rustup), openssl, bubblewrap, and the registry reachable
# for husky. Not part of npm test. Prints each case's exit code: the table in classify.test.ts keeps them.
# Usage: scripts/record-corpus/record-classify.sh [case-filter]
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/electron/engine/failures/classify-corpus"
WORK="${RECORD_WORK:-/tmp/rc}"
FILTER="${1:-}"
export PYTHONDONTWRITEBYTECODE=1
export RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" RUSTUP_TOOLCHAIN="${RUSTUP_TOOLCHAIN:-stable}"

wanted() { [ -z "$FILTER" ] || [[ "$1" == *"$FILTER"* ]]; }
fresh() { rm -rf "${WORK:?}/$1"; mkdir -p "$WORK"; cp -r "$HERE/projects/$1" "$WORK/$1"; cd "$WORK/$1" || exit 1; }
# changed <project>: the base committed, then the change laid over it (as an agent's attempt leaves the worktree).
changed() {
  rm -rf "${WORK:?}/$1"; mkdir -p "$WORK/$1"; cp -r "$HERE/projects/$1/base/." "$WORK/$1"; cd "$WORK/$1" || exit 1
  git init -q && git add -A && git -c user.name=rec -c user.email=rec@example.com commit -qm base
  cp -r "$HERE/projects/$1/change/." . && git add -A
}
# rec <case> <command…>: stdout and stderr together, as a gate sees them.
rec() {
  local id="$1"; shift
  wanted "$id" || return 0
  bash -c "$*" >"$OUT/$id.txt" 2>&1
  echo "recorded $id (exit $?)"
}
# recdiff <case>: the change as Ratchet's diff of the attempt shows it.
recdiff() { wanted "$1" || return 0; git diff --cached --no-color --no-ext-diff >"$OUT/$1.diff"; }
# sandboxed <case> <command> [host…]: in Ratchet's own OS sandbox, with only the hosts listed reachable.
sandboxed() {
  local id="$1" cmd="$2"; shift 2
  wanted "$id" || return 0
  (cd "$ROOT" && npx --no-install tsx "$HERE/in-sandbox.ts" "$OLDPWD" "$cmd" "$@") >"$OUT/$id.txt" 2>&1
  echo "recorded $id (exit $?, sandboxed)"
}

# Missing modules: the project's own, declared but not installed, introduced by the change.
fresh cls-node-local
rec node-local-missing node index.js
fresh cls-node-declared
rec node-declared-missing node index.js
changed cls-node-introduced
rec node-introduced-missing node index.js
recdiff node-introduced-missing
changed cls-node-esm-introduced
rec node-test-introduced-missing node --test
recdiff node-test-introduced-missing
fresh cls-node-declared-bin
rec node-declared-command-missing npm test
fresh cls-py-declared
rec python-declared-missing python3 -m pytest -p no:cacheprovider
changed cls-py-introduced
rec python-introduced-missing python3 -m pytest -p no:cacheprovider
recdiff python-introduced-missing
changed cls-go-own
rec go-own-package-missing GOFLAGS=-mod=mod GOPROXY=off go build ./...
recdiff go-own-package-missing

# The sandbox's proxy refusing a host that is not on the workflow's network list (another host is on it, so the
# command starts the proxy's relays and the proxy answers 403).
ON_LIST=allowed.corp.example
fresh cls-net-npm
sandboxed net-refused-npm 'npm install --no-audit --no-fund --registry https://npm.corp.example/' $ON_LIST
fresh cls-net-pip
python3 -m venv .venv
sandboxed net-refused-pip '.venv/bin/pip install --isolated --index-url https://pypi.corp.example/simple -r requirements.txt' $ON_LIST
fresh cls-net-go
sandboxed net-refused-go 'GOPROXY=https://goproxy.corp.example GOSUMDB=off GOFLAGS=-mod=mod go build ./...' $ON_LIST
fresh cls-net-cargo
sandboxed net-refused-cargo 'cargo build --color=never' $ON_LIST
sandboxed net-refused-curl 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json' $ON_LIST
sandboxed net-refused-curl-http 'curl -sSf http://downloads.corp.example/fixtures/players.json -o players.json' $ON_LIST

# The same with an empty network list: the command runs without the proxy's relays, and the client is refused at the
# proxy's port inside the sandbox.
fresh cls-net-npm
sandboxed net-noproxy-npm 'npm install --no-audit --no-fund --registry https://npm.corp.example/'
fresh cls-net-pip
python3 -m venv .venv
sandboxed net-noproxy-pip '.venv/bin/pip install --isolated --index-url https://pypi.corp.example/simple -r requirements.txt'
fresh cls-net-go
sandboxed net-noproxy-go 'GOPROXY=https://goproxy.corp.example GOSUMDB=off GOFLAGS=-mod=mod go build ./...'
fresh cls-net-cargo
sandboxed net-noproxy-cargo 'cargo build --color=never'
sandboxed net-noproxy-curl 'curl -sS https://downloads.corp.example/fixtures/players.json -o players.json'
sandboxed net-noproxy-curl-http 'curl -sSf http://downloads.corp.example/fixtures/players.json -o players.json'
sandboxed net-noproxy-git 'git clone https://git.corp.example/acme/fixtures.git'

# A git-hook installer (husky, in npm's prepare) that cannot write the repository's read-only .git, then a real
# test failure: the test failure is what the gate says.
if wanted husky-erofs-test-failure; then
  rm -rf "$WORK/cls-husky-repo" "$WORK/cls-husky"; cp -r "$HERE/projects/cls-husky" "$WORK/cls-husky-repo"
  (cd "$WORK/cls-husky-repo" && git init -q && git add -A && git -c user.name=rec -c user.email=rec@example.com commit -qm base &&
    git worktree add -q "$WORK/cls-husky" && cd "$WORK/cls-husky" && npm install --no-audit --no-fund >/dev/null 2>&1 &&
    git -C "$WORK/cls-husky-repo" config --unset core.hooksPath)
  cd "$WORK/cls-husky" && sandboxed husky-erofs-test-failure 'npm install --offline --no-audit --no-fund && npm test'
fi

# No sandbox: a registry host that does not resolve, and one that refuses the connection.
fresh cls-net-npm
rec net-enotfound-npm npm install --no-audit --no-fund --registry https://npm.corp.example/
rec net-econnrefused-npm npm install --no-audit --no-fund --registry http://127.0.0.1:9/
fresh cls-net-pip
python3 -m venv .venv
rec net-dns-pip .venv/bin/pip install --isolated --index-url https://pypi.corp.example/simple -r requirements.txt
rec net-dns-curl curl -sS https://downloads.corp.example/fixtures/players.json -o players.json

# TLS: a certificate chain no client trusts (a TLS-inspecting proxy without its CA in the certificate variables).
CERTS="$WORK/certs"; rm -rf "$CERTS"; mkdir -p "$CERTS"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$CERTS/ca.key" -out "$CERTS/ca.pem" -days 30 -subj "/CN=Corp Inspection Root" 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$CERTS/leaf.key" -out "$CERTS/leaf.csr" -subj "/CN=localhost" 2>/dev/null
printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >"$CERTS/ext"
openssl x509 -req -in "$CERTS/leaf.csr" -CA "$CERTS/ca.pem" -CAkey "$CERTS/ca.key" -CAcreateserial -out "$CERTS/leaf.pem" -days 30 -extfile "$CERTS/ext" 2>/dev/null
node "$HERE/tls-server.mjs" chain 8741 "$CERTS" & CHAIN=$!
node "$HERE/tls-server.mjs" leaf 8742 "$CERTS" & LEAF=$!
sleep 1
fresh cls-net-npm
rec tls-self-signed-npm npm install --no-audit --no-fund --registry https://localhost:8741/
fresh cls-net-pip
python3 -m venv .venv
rec tls-verify-failed-pip .venv/bin/pip install --isolated --index-url https://localhost:8741/simple -r requirements.txt
rec tls-local-issuer-curl curl -sS https://localhost:8742/fixtures/players.json -o players.json
kill "$CHAIN" "$LEAF"

# Registry errors: a package the registry does not have, a registry that is down. (npm's E401 text names npm's own
# web site, so it is not kept here.)
node "$HERE/registry-stub.mjs" 404 8743 & S404=$!
node "$HERE/registry-stub.mjs" 503 8745 & S503=$!
sleep 1
fresh cls-net-npm
rec registry-e404-npm npm install --no-audit --no-fund --registry http://127.0.0.1:8743/
rec registry-e503-npm npm install --no-audit --no-fund --fetch-retries=1 --registry http://127.0.0.1:8745/
kill "$S404" "$S503"

# npm where the gate does not fit the repository (no package.json), and a package.json npm cannot read.
if wanted npm-no-package-json; then rm -rf "$WORK/cls-empty"; mkdir -p "$WORK/cls-empty"; cd "$WORK/cls-empty" || exit 1; fi
rec npm-no-package-json npm test
fresh cls-npm-broken
rec npm-ejsonparse npm test
# A failure no pattern names: the headline is npm's own error, not its "complete log" line.
fresh cls-npm-engine
rec npm-ebadengine npm install --engine-strict --no-audit --no-fund
fresh cls-node-declared
rec npm-ci-no-lockfile npm ci --offline --no-audit --no-fund
