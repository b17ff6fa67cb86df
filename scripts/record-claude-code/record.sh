#!/usr/bin/env bash
# Re-records Claude Code's stream-json output for API errors (429, 529, 500) against the scripted server.
# Usage: scripts/record-claude-code/record.sh   (needs network access to npm once, to install Claude Code in a temp folder)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$root/electron/engine/agents/fixtures/claude-code"
work="$(mktemp -d)"
(cd "$work" && npm i --no-audit --no-fund @anthropic-ai/claude-code >/dev/null)
mkdir -p "$work/wt" "$work/home" && git -C "$work/wt" init -q
for status in 429 529 500; do
  "$root/node_modules/.bin/tsx" "$root/scripts/record-claude-code/serve-error.ts" "$status" > "$work/url" &
  server=$!
  for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
  (cd "$work/wt" && ANTHROPIC_BASE_URL="$(cat "$work/url")" ANTHROPIC_API_KEY=x CLAUDE_CODE_MAX_RETRIES=1 HOME="$work/home" \
    "$work/node_modules/.bin/claude" -p "say hi" --output-format stream-json --verbose --allowedTools Bash \
    > "$out/api-error-$status.stream.jsonl") || true
  kill "$server" 2>/dev/null || true
  : > "$work/url"
done
echo "recorded into $out"
