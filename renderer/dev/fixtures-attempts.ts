// Attempt details for the fake bridge: transcripts, gate output with ANSI colours and parsed failing tests, diffs, decisions.
import type { AttemptDetail } from '../../shared/contract';
import type { StatusDocument } from '../../shared/domain';

const E = '\u001b[';
const red = (s: string) => `${E}31m${s}${E}39m`;
const green = (s: string) => `${E}32m${s}${E}39m`;
const dim = (s: string) => `${E}2m${s}${E}22m`;
const bold = (s: string) => `${E}1m${s}${E}22m`;

export const FAILING_TEST_OUTPUT = [
  `${E}7m${E}1m${E}36m RUN ${E}0m ${E}36mv3.2.4 ${E}0m${dim('/home/dev/.config/ratchet/worktrees/space-game-7f3a21')}`,
  '',
  ` ${green('✓')} src/player.test.ts ${dim('>')} Player ${dim('>')} damage() lowers health ${dim('2ms')}`,
  ` ${green('✓')} src/player.test.ts ${dim('>')} Player ${dim('>')} damage() never goes below zero ${dim('1ms')}`,
  ` ${red('×')} src/player.test.ts ${dim('>')} Player ${dim('>')} heal() caps at max health ${dim('4ms')}`,
  `   ${red('→ expected 120 to be 100 // Object.is equality')}`,
  ` ${green('✓')} src/player.test.ts ${dim('>')} Player ${dim('>')} heal() adds health ${dim('1ms')}`,
  '',
  `${red(`${bold('⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯')}`)}`,
  '',
  `${red(bold(' FAIL '))} src/player.test.ts ${dim('>')} Player ${dim('>')} heal() caps at max health`,
  `${red(bold('AssertionError'))}: expected 120 to be 100 // Object.is equality`,
  '',
  `${green('- Expected')}`,
  `${red('+ Received')}`,
  '',
  `${green('- 100')}`,
  `${red('+ 120')}`,
  '',
  ` ${E}36m❯${E}39m src/player.test.ts:42:27`,
  `     40|     const p = new Player({ maxHealth: 100 });`,
  `     41|     p.damage(30); p.heal(50);`,
  `     42|     expect(p.health).toBe(100);`,
  `       |                           ${red('^')}`,
  `     43|   });`,
  '',
  ` ${bold('Test Files')}  ${red('1 failed')} (1)`,
  `      ${bold('Tests')}  ${red('1 failed')} | ${green('3 passed')} (4)`,
  `   ${bold('Duration')}  412ms`,
].join('\n');

const DIFF_1 = `diff --git a/src/player.ts b/src/player.ts
index 4b1c2d0..9e8f7a6 100644
--- a/src/player.ts
+++ b/src/player.ts
@@ -12,6 +12,10 @@ export class Player {
   damage(amount: number): void {
     this.health = Math.max(0, this.health - amount);
   }
+
+  heal(amount: number): void {
+    this.health = this.health + amount;
+  }
 }
diff --git a/src/player.test.ts b/src/player.test.ts
index 1a2b3c4..5d6e7f8 100644
--- a/src/player.test.ts
+++ b/src/player.test.ts
@@ -36,4 +36,16 @@ describe('Player', () => {
+  it('heal() adds health', () => {
+    const p = new Player({ maxHealth: 100 });
+    p.damage(30); p.heal(10);
+    expect(p.health).toBe(80);
+  });
+
+  it('heal() caps at max health', () => {
+    const p = new Player({ maxHealth: 100 });
+    p.damage(30); p.heal(50);
+    expect(p.health).toBe(100);
+  });
 });
`;

const DIFF_2 = `diff --git a/src/player.ts b/src/player.ts
index 9e8f7a6..0c1d2e3 100644
--- a/src/player.ts
+++ b/src/player.ts
@@ -14,7 +14,7 @@ export class Player {
   }
 
   heal(amount: number): void {
-    this.health = this.health + amount;
+    this.health = Math.min(this.maxHealth, this.health + amount);
   }
 }
`;

export function makeAttempt(doc: StatusDocument, step: number, n: number, now: number, bigOutput: () => string): AttemptDetail | null {
  const s = doc.steps.find((x) => x.index === step);
  const a = s?.attempts.find((x) => x.n === n);
  if (!s || !a) return null;
  const started = now - (86_400 - step * 300 - n * 120) * 1000;
  const failed = a.outcome === 'failed' || a.outcome === 'error';
  const isHealthRetry = doc.id === 'r-7f3a21' && step === 2;
  const big = doc.id === 'r-e0a5f1' && n === 1;
  const output = big
    ? bigOutput()
    : failed
      ? a.errorClass === 'compilation_error'
        ? `src/ws/reconnect.ts(41,7): ${red('error')} TS2322: Type 'number | undefined' is not assignable to type 'number'.\nsrc/ws/reconnect.ts(58,19): ${red('error')} TS2339: Property 'jitter' does not exist on type 'BackoffOptions'.\n\nFound 2 errors in the same file, starting at: src/ws/reconnect.ts:41`
        : FAILING_TEST_OUTPUT
      : FAILING_TEST_OUTPUT.replace(/.*FAIL[\s\S]*$/m, '')
          .replace(/×/g, '✓')
          .replace(/expected 120.*\n/, '') + `\n ${bold('Tests')}  ${green('4 passed')} (4)`;
  return {
    runId: doc.id,
    step,
    n,
    outcome: a.outcome,
    errorClass: a.errorClass,
    errorMessage: failed
      ? a.errorClass === 'test_failure'
        ? '1 test failed: Player > heal() caps at max health'
        : a.errorClass === 'compilation_error'
          ? "TS2322: Type 'number | undefined' is not assignable to type 'number'."
          : 'the gate failed'
      : a.outcome === 'interrupted'
        ? 'the process stopped during this attempt'
        : null,
    model: a.model,
    agentKind: 'anthropic',
    prompt:
      n === 1 ? `Step ${step} of ${doc.steps.length}: ${s.title}.` : `Attempt ${n} of 4. The previous attempt failed the \`test\` gate (npm test, exit 1)...`,
    transcript: [
      {
        kind: 'text',
        text:
          n === 1
            ? `I'll start by reading the Player class to see how health is stored.`
            : 'The test expects heal() to stop at maxHealth; my previous change added without a cap. Fixing that.',
      },
      { kind: 'tool_use', text: '', name: 'bash', input: { command: 'sed -n 1,40p src/player.ts' } },
      {
        kind: 'tool_result',
        text: 'export class Player {\n  health: number;\n  readonly maxHealth: number;\n  constructor(o: { maxHealth: number }) { ... }',
        name: 'bash',
      },
      {
        kind: 'tool_use',
        text: '',
        name: 'str_replace_based_edit_tool',
        input: { command: 'str_replace', path: 'src/player.ts', old_str: 'this.health + amount', new_str: 'Math.min(this.maxHealth, this.health + amount)' },
      },
      { kind: 'tool_result', text: 'The file src/player.ts has been edited.', name: 'str_replace_based_edit_tool' },
      ...(a.outcome === 'running'
        ? []
        : [
            {
              kind: 'text' as const,
              text: isHealthRetry && n === 2 ? 'heal() now caps at maxHealth and both heal tests pass locally.' : 'Done: the change is in place with tests.',
            },
          ]),
    ],
    gates:
      a.outcome === 'running' || a.outcome === 'interrupted'
        ? []
        : [
            {
              gate: big ? 'build' : 'test',
              command: big ? 'npm run build' : 'npm test',
              passed: !failed,
              exitCode: failed ? (big ? 2 : 1) : 0,
              signal: null,
              timedOut: false,
              durationMs: big ? 96_400 : 4_120,
              output,
              outputBytes: big ? output.length : new TextEncoder().encode(output).length,
              failures:
                failed && a.errorClass === 'test_failure'
                  ? [
                      {
                        name: 'Player > heal() caps at max health',
                        message: 'expected 120 to be 100 // Object.is equality',
                        expected: '100',
                        actual: '120',
                        file: 'src/player.test.ts',
                        line: 42,
                      },
                    ]
                  : failed && a.errorClass === 'compilation_error' && !big
                    ? [
                        // Not in the diff: the failing-tests panel links these to the gate output instead.
                        {
                          kind: 'compile' as const,
                          name: 'src/ws/reconnect.ts:41:7 TS2322',
                          message: "Type 'number | undefined' is not assignable to type 'number'.",
                          expected: null,
                          actual: null,
                          file: 'src/ws/reconnect.ts',
                          line: 41,
                          column: 7,
                          code: 'TS2322',
                        },
                        {
                          kind: 'compile' as const,
                          name: 'src/ws/reconnect.ts:58:19 TS2339',
                          message: "Property 'jitter' does not exist on type 'BackoffOptions'.",
                          expected: null,
                          actual: null,
                          file: '/home/dev/code/http-kit/src/ws/reconnect.ts',
                          line: 58,
                          column: 19,
                          code: 'TS2339',
                        },
                      ]
                    : [],
            },
          ],
    diff: a.outcome === 'running' ? null : isHealthRetry && n === 2 ? DIFF_2 : DIFF_1,
    decision: a.decision,
    fingerprint: a.fingerprint,
    startedAt: new Date(started).toISOString(),
    finishedAt: a.outcome === 'running' ? null : new Date(started + (isHealthRetry ? 71_000 : 48_000) + n * 9000).toISOString(),
    inputTokens: a.inputTokens,
    outputTokens: a.outputTokens,
    cacheReadTokens: a.cacheReadTokens,
    cacheWriteTokens: a.cacheWriteTokens,
    costUsd: a.costUsd,
  };
}

/** A 20 MB build log with colours, to check that the virtualized output stays fast. */
export function makeBigOutput(targetBytes = 20 * 1024 * 1024): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < targetBytes; i++) {
    const line =
      i % 97 === 0
        ? `${red('error')} src/module-${i % 300}.ts(${i % 80},${i % 40}): TS2345: Argument of type 'string' is not assignable to parameter of type 'number'.`
        : i % 13 === 0
          ? `${E}33mwarn${E}39m  chunk vendor-${i}.js is larger than 500 kB after minification`
          : `${dim(`[${String(i).padStart(7, '0')}]`)} transforming src/components/widget-${i % 1000}/index.tsx ${green('✓')}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}
