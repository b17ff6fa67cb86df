// Test helper: a gate command that fails its first `fails` runs, then passes; its counter lives in the run's TMPDIR, outside the worktree and writable in the sandbox.
export function flipGate(fails: number, failWith = 'echo "not ok 1 - flips"; exit 1'): string {
  const counter = `"$TMPDIR/flip-${Math.random().toString(36).slice(2)}"`;
  return `n=$(cat ${counter} 2>/dev/null || echo 0); echo $((n+1)) > ${counter}; if [ "$n" -lt ${fails} ]; then ${failWith}; fi; echo ok`;
}
