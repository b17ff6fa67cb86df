// Tests for failure fingerprints: run-to-run noise (paths, timings, addresses, ids) is ignored, real differences are not.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ErrorClass } from '../../../shared/domain';
import type { FailedTest } from '../gates/parse-failures';
import { parseFailures } from '../gates/parse-failures';
import { fingerprint, normaliseFailure } from './fingerprint';
import type { FingerprintInput } from './fingerprint';

const read = (name: string): string => fs.readFileSync(path.join(import.meta.dirname, 'classify-corpus', name), 'utf8');

function test(over: Partial<FailedTest>): FailedTest {
  return { name: 'cart > adds item totals', message: null, expected: '30', actual: '25', file: 'src/cart.test.js', line: 12, ...over };
}

function fp(errorClass: ErrorClass, failures: FailedTest[], output = ''): string {
  return fingerprint({ errorClass, failures, output });
}

describe('fingerprint: the same failure twice', () => {
  it('ignores worktree paths, durations, addresses, timestamps and colours around the same failing tests', () => {
    const first: FingerprintInput = {
      errorClass: 'test_failure',
      failures: [
        test({ file: '/home/ana/.ratchet/worktrees/shop-a1b2c3/src/cart.test.js', message: 'Error: expect(received).toBe(expected) (12 ms)' }),
        test({
          name: 'cart > applies a discount code',
          expected: null,
          actual: null,
          line: 17,
          file: '/home/ana/.ratchet/worktrees/shop-a1b2c3/src/cart.test.js',
          message: 'TypeError: cart.applyDiscount is not a function',
        }),
      ],
      output: 'Time: 0.734 s\n',
    };
    const second: FingerprintInput = {
      errorClass: 'test_failure',
      // Reported in the other order, from another worktree, with other timings and colours.
      failures: [
        test({
          name: 'cart > applies a discount code',
          expected: null,
          actual: null,
          line: 17,
          file: '/home/ana/.ratchet/worktrees/shop-z9y8x7/src/cart.test.js',
          message: '\u001b[31mTypeError: cart.applyDiscount is not a function\u001b[39m',
        }),
        test({ file: '/home/ana/.ratchet/worktrees/shop-z9y8x7/src/cart.test.js', message: 'Error: expect(received).toBe(expected) (340 ms)' }),
      ],
      output: 'Time: 2.1 s\n',
    };
    expect(normaliseFailure(first)).toBe(normaliseFailure(second));
    expect(fingerprint(first)).toBe(fingerprint(second));
    expect(fingerprint(first)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('makes paths under `root` project-relative, so absolute and relative reports agree', () => {
    const absolute = fingerprint({
      errorClass: 'test_failure',
      failures: [test({ file: '/srv/ci/build-4711/repo/src/cart.test.js' })],
      output: '',
      root: '/srv/ci/build-4711/repo/',
    });
    expect(absolute).toBe(fp('test_failure', [test({ file: 'src/cart.test.js' })]));
  });

  it('reads a runner’s announced root (vitest, pytest, cargo) when no root is given', () => {
    const vitestOutput = (root: string): string =>
      ` RUN  v5.1.1 ${root}\n\n FAIL  src/math.test.ts > math > adds numbers\nAssertionError: expected 6 to be 5\n ❯ ${root}/src/math.ts:3:9\n`;
    const a = normaliseFailure({ errorClass: 'test_failure', failures: [], output: vitestOutput('/home/dev/calc') });
    const b = normaliseFailure({ errorClass: 'test_failure', failures: [], output: vitestOutput('/srv/ci/job-93/calc') });
    expect(a).toBe(b);
    expect(a).toContain('top src/math.ts');
  });

  it('ignores hex addresses in a crash and PIDs in a shell’s crash line', () => {
    const crash = read('godot-crash.txt');
    const again = crash.replace(/0x[0-9a-f]+/g, (h) => `0x${(parseInt(h, 16) + 0x1000).toString(16)}`);
    expect(again).not.toBe(crash);
    expect(fp('crash', [], again)).toBe(fp('crash', [], crash));

    const segv = read('segfault.txt');
    expect(fp('crash', [], segv.replace('11455', '20931'))).toBe(fp('crash', [], segv));

    // Go prints the faulting addresses on the panic's own lines.
    const panic = (addr: string, pc: string): string =>
      `panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=${addr} pc=${pc}]\n`;
    expect(fp('crash', [], panic('0x18', '0x4a3f2b'))).toBe(fp('crash', [], panic('0x20', '0x4a51c7')));
  });

  it("ignores V8's GC trace numbers before a heap out-of-memory", () => {
    const oom = read('node-oom.txt');
    // Another run collects garbage a different number of times before giving up.
    const gc = oom.match(/^\[11558.*$/m)![0];
    const again = oom.replace(
      gc,
      `[20417:0x2e4c0000]      12 ms: Scavenge 4.1 (5.2) -> 3.9 (6.2) MB, pooled: 0 MB, 1.05 / 0.00 ms  (average mu = 1.000, current mu = 1.000) allocation failure;\n${gc}`,
    );
    expect(again).not.toBe(oom);
    expect(fp('resource_exhaustion', [], again)).toBe(fp('resource_exhaustion', [], oom));
  });

  it('ignores line and column numbers in the output fallback (an edit above the error moves them)', () => {
    const tsc = read('tsc.txt');
    const moved = tsc.replace('src/index.ts(2,24)', 'src/index.ts(5,24)').replace('src/math.ts(7,53)', 'src/math.ts(9,1)');
    expect(moved).not.toBe(tsc);
    expect(fp('compilation_error', [], moved)).toBe(fp('compilation_error', [], tsc));
  });

  it('ignores temp directories, ISO and clock times, UUIDs, commit hashes, ports, PIDs, install and home paths, object ids', () => {
    interface Noise {
      tmp: string;
      time: string;
      id: string;
      sha: string;
      port: number;
      pid: number;
      ci: string;
      home: string;
      obj: string;
    }
    const lines = (n: Noise): string[] => [
      `[${n.time}] ERROR request ${n.id} failed: connect ECONNREFUSED 127.0.0.1:${n.port}`,
      `error: could not apply ${n.sha}... Add enemy AI`,
      `Error: ENOENT: no such file or directory, open '${n.tmp}/fixtures/level1.json'`,
      `worker pid=${n.pid} failed`,
      `sh: ${n.ci}/node_modules/.bin/esbuild: Permission denied`,
      `Error: cannot open ${n.home}/.config/godot/editor_settings-4.tres`,
      `SCRIPT ERROR: Invalid get index 'hp' (on base: 'CharacterBody2D#${n.obj}').`,
    ];
    const a = lines({
      tmp: '/tmp/tmp-4f2a9c',
      time: '2025-11-22T10:14:02.123Z',
      id: '7d9f1c2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f',
      sha: '3f2a1c9',
      port: 41873,
      pid: 4711,
      ci: '/opt/ci/job-17/app',
      home: '/home/ana',
      obj: '30031266998',
    });
    const b = lines({
      tmp: '/private/var/folders/x7/k2j4h5_n0q9/T/tmp-b81e07',
      time: '2025-11-23T08:01:59.987Z',
      id: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d',
      sha: '9c81d0e',
      port: 39211,
      pid: 90210,
      ci: '/opt/ci/job-18/app',
      home: '/Users/bo',
      obj: '28647211733',
    });
    const norm = (line: string): string => normaliseFailure({ errorClass: 'unknown', failures: [], output: line });
    // One line at a time: the fallback keeps only the first few error lines.
    expect(a.map(norm)).toEqual(b.map(norm));
    expect(a.map(norm).map((n) => n.replace('class unknown\nerror ', ''))).toEqual([
      '[<time>] ERROR request <uuid> failed: connect ECONNREFUSED <ip>:<port>',
      'error: could not apply <hash>... Add enemy AI',
      "Error: ENOENT: no such file or directory, open 'fixtures/level1.json'",
      'worker pid=<pid> failed',
      'sh: node_modules/.bin/esbuild: Permission denied',
      'Error: cannot open ~/.config/godot/editor_settings-4.tres',
      "SCRIPT ERROR: Invalid get index 'hp' (on base: 'CharacterBody2D#<n>').",
    ]);
  });

  it('reads a go test -json stream as the text it stands for, so event times do not matter', () => {
    const stream = read('go-test-json.txt');
    const later = stream.replace(/"Time":"[^"]+"/g, '"Time":"2026-01-02T03:04:05.678901Z"').replace(/"Elapsed":[\d.]+/g, '"Elapsed":1.5');
    expect(fp('test_failure', [], later)).toBe(fp('test_failure', [], stream));
  });

  it('for a timeout, uses only error lines: where the output was cut does not matter', () => {
    const partial = read('timeout-hang.txt');
    expect(fp('timeout', [], `${partial}# Subtest: loads saves\nok 2 - loads saves\n`)).toBe(fp('timeout', [], partial));
    expect(normaliseFailure({ errorClass: 'timeout', failures: [], output: partial })).toBe('class timeout');
  });
});

describe('fingerprint: a different failure', () => {
  const base = [test({}), test({ name: 'cart > starts empty', expected: '0', actual: '5', line: 4 })];

  it('another test failing', () => {
    expect(fp('test_failure', [test({})])).not.toBe(fp('test_failure', base));
    expect(fp('test_failure', [test({ name: 'cart > removes items' })])).not.toBe(fp('test_failure', [test({})]));
  });

  it('another expected or actual value', () => {
    expect(fp('test_failure', [test({ expected: '31' })])).not.toBe(fp('test_failure', [test({})]));
    expect(fp('test_failure', [test({ actual: '26' })])).not.toBe(fp('test_failure', [test({})]));
  });

  it('another class for the same output', () => {
    const out = read('segfault.txt');
    expect(fp('crash', [], out)).not.toBe(fp('unknown', [], out));
    expect(fp('test_failure', [test({})])).not.toBe(fp('compilation_error', [test({})]));
  });

  it('another way of failing when there are no values to compare', () => {
    const a = test({ expected: null, actual: null, message: 'TypeError: cart.applyDiscount is not a function' });
    const b = test({ expected: null, actual: null, message: 'RangeError: Maximum call stack size exceeded' });
    expect(fp('test_failure', [a])).not.toBe(fp('test_failure', [b]));
  });

  it("another location of a parsed test's failing assertion", () => {
    expect(fp('test_failure', [test({ line: 13 })])).not.toBe(fp('test_failure', [test({})]));
  });

  it('another error in the output fallback', () => {
    const tsc = read('tsc.txt');
    expect(fp('compilation_error', [], tsc.replace("Property 'lenght'", "Property 'lentgh'"))).not.toBe(fp('compilation_error', [], tsc));
  });

  it('another project frame on top of the stack, skipping node_modules and node:internal frames', () => {
    const stack = (frame: string): string =>
      `Error: boom\n    at fn (/home/u/.ratchet/worktrees/app-abc123/node_modules/lib/index.js:1:1)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n    at ${frame}\n`;
    const main = normaliseFailure({ errorClass: 'unknown', failures: [], output: stack('main (/home/u/.ratchet/worktrees/app-abc123/src/main.js:10:3)') });
    expect(main).toBe('class unknown\nerror Error: boom\ntop src/main.js');
    const other = normaliseFailure({ errorClass: 'unknown', failures: [], output: stack('load (/home/u/.ratchet/worktrees/app-abc123/src/load.js:10:3)') });
    expect(other).toBe('class unknown\nerror Error: boom\ntop src/load.js');
  });
});

describe('normaliseFailure', () => {
  it('shows the class and the sorted failing tests with their values and locations', () => {
    const failures = parseFailures({ output: read('gut-fail.txt') });
    expect(normaliseFailure({ errorClass: 'test_failure', failures, output: read('gut-fail.txt') })).toBe(
      [
        'class test_failure',
        'test test/unit/test_player.gd > test_player_health | expected=100 | actual=0 | at test/unit/test_player.gd:14',
        'test test/unit/test_player.gd > test_take_damage | error=Expected object <CharacterBody2D#<n>> to have emitted signal [health_changed]: Signal not emitted | at test/unit/test_player.gd:23',
      ].join('\n'),
    );
  });

  it('falls back to the first few error lines of the output, without line numbers, and the top project frame', () => {
    expect(normaliseFailure({ errorClass: 'missing_dependency', failures: [], output: read('node-missing-module.txt') })).toBe(
      "class missing_dependency\nerror Error: Cannot find module 'express'\ntop ~/jsapp/app.js",
    );
    const cargo = normaliseFailure({ errorClass: 'compilation_error', failures: [], output: read('cargo-build-fail.txt') }).split('\n');
    expect(cargo[0]).toBe('class compilation_error');
    expect(cargo).toContain('error error[E0308]: mismatched types');
    expect(cargo).toContain('top src/lib.rs');
    expect(cargo.length).toBeLessThanOrEqual(1 + 5 + 1);
  });

  it('uses the last lines when nothing in the output reads like an error', () => {
    expect(normaliseFailure({ errorClass: 'unknown', failures: [], output: 'step 1\nstep 2\nstep 3\nstep 4 took 3.2s\n' })).toBe(
      'class unknown\nerror step 2\nerror step 3\nerror step 4 took <dur>',
    );
  });
});

describe('fingerprint on garbage', () => {
  it('is stable and never throws', () => {
    const rand = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 7919) % 256)).toString('latin1');
    const inputs: FingerprintInput[] = [
      { errorClass: 'unknown', failures: [], output: '' },
      { errorClass: 'unknown', failures: [], output: rand },
      { errorClass: 'crash', failures: [], output: '\u0000'.repeat(1000) },
      { errorClass: 'unknown', failures: [], output: 'x'.repeat(200_000) },
      { errorClass: 'unknown', failures: [], output: null as unknown as string },
      { errorClass: 'unknown', failures: null as unknown as FailedTest[], output: rand },
      {
        errorClass: 'test_failure',
        failures: [null, 5, { name: 7, message: {}, expected: [1], actual: undefined, file: 9, line: 'x' }] as unknown as FailedTest[],
        output: rand,
      },
      { errorClass: 'test_failure', failures: [test({ name: rand, message: rand, expected: rand, file: rand })], output: rand },
    ];
    for (const input of inputs) {
      expect(() => fingerprint(input)).not.toThrow();
      expect(fingerprint(input)).toMatch(/^[0-9a-f]{16}$/);
      expect(fingerprint(input)).toBe(fingerprint(input));
    }
    expect(normaliseFailure({ errorClass: 'unknown', failures: [], output: '' })).toBe('class unknown');
  });
});
