#!/usr/bin/env bash
# Records workspace runners' output over one monorepo (three packages tested by vitest, one failing test) into the
# failure corpus: pnpm -r and --filter (plain and coloured), npm workspaces. Needs vitest in $JS_RUNNERS/node_modules
# and pnpm 9 reachable through npx. Not part of npm test; truth files are written by hand.
set -u
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
OUT="$ROOT/electron/engine/gates/corpus/monorepo"
WORK="${RECORD_WORK:-/tmp/rc}/pnpm-workspace"
JS_RUNNERS="${JS_RUNNERS:-/tmp/jsrunners}"
rm -rf "$WORK"; mkdir -p "$(dirname "$WORK")"; cp -r "$HERE/projects/pnpm-workspace" "$WORK"; cd "$WORK" || exit 1
ln -s "$JS_RUNNERS/node_modules" node_modules
for p in packages/*; do ln -s "$JS_RUNNERS/node_modules" "$p/node_modules"; done
mkdir -p "$OUT"
rec() {
  local id="$1"; shift
  bash -c "$*" >"$OUT/$id.txt" 2>&1
  echo $? >"$OUT/$id.exit"
  echo "recorded monorepo/$id (exit $(cat "$OUT/$id.exit"))"
}
export CI=1 # vitest colours its output under CI; the plain case turns that off
rec pnpm-recursive npx --yes pnpm@9 -r run test
rec pnpm-filter npx --yes pnpm@9 --filter ./packages/prompts run test
NO_COLOR=1 rec pnpm-recursive-plain npx --yes pnpm@9 -r run test
FORCE_COLOR=1 rec pnpm-recursive-color npx --yes pnpm@9 -r run test
rec npm-workspaces npm test --workspaces

# yarn (berry) workspaces: installed before node_modules is linked (an install would prune the link), PATH finds vitest.
YWORK="$(dirname "$WORK")/yarn-workspace"
rm -rf "$YWORK"; cp -r "$HERE/projects/pnpm-workspace" "$YWORK"; cd "$YWORK" || exit 1
printf 'nodeLinker: node-modules\nenableTelemetry: false\n' >.yarnrc.yml; touch yarn.lock
env -u CI npx --yes @yarnpkg/cli-dist@4 install >/dev/null 2>&1 # under CI an install is --immutable
for p in packages/*; do ln -s "$JS_RUNNERS/node_modules" "$p/node_modules"; done
export PATH="$JS_RUNNERS/node_modules/.bin:$PATH"
rec yarn-foreach npx --yes @yarnpkg/cli-dist@4 workspaces foreach -A run test
rec yarn-foreach-verbose npx --yes @yarnpkg/cli-dist@4 workspaces foreach -A -p -v run test

# turbo 2 over the pnpm workspace: needs pnpm and turbo binaries ($MONO_TOOLS/node_modules/.bin, from
# `npm i --prefix $MONO_TOOLS pnpm@9 turbo@2`), the workspace installed before node_modules is linked.
MONO_TOOLS="${MONO_TOOLS:-/tmp/mono-tools}"
if [ -x "$MONO_TOOLS/node_modules/.bin/turbo" ]; then
  TWORK="$(dirname "$WORK")/turbo-workspace"
  rm -rf "$TWORK"; cp -r "$HERE/projects/pnpm-workspace" "$TWORK"; cd "$TWORK" || exit 1
  node -e 'const fs=require("fs");const j=JSON.parse(fs.readFileSync("package.json","utf8"));j.packageManager="pnpm@9.15.9";fs.writeFileSync("package.json",JSON.stringify(j,null,2))'
  printf '{ "tasks": { "test": {} } }\n' >turbo.json
  export PATH="$MONO_TOOLS/node_modules/.bin:$PATH" TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  env -u CI pnpm install >/dev/null 2>&1
  for p in packages/*; do [ -e "$p/node_modules" ] || ln -s "$JS_RUNNERS/node_modules" "$p/node_modules"; done
  rec turbo-run turbo run test --continue --ui=stream '</dev/null'
else
  echo "turbo not recorded: no $MONO_TOOLS/node_modules/.bin/turbo"
fi
