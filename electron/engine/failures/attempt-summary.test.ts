// The attempts summary compares failing tests by name: a message whose values change between attempts is the same test.
import { describe, expect, it } from 'vitest';
import { parseFailures } from '../gates/parse-failures';
import { attemptsSummary, testIdentity, type AttemptFacts } from './attempt-summary';

function attempt(n: number, output: string): AttemptFacts {
  return { n, outcome: 'failed', errorClass: 'test_failure', message: null, failedTests: [...new Set(parseFailures({ output }).map(testIdentity))] };
}

describe('failing tests are compared by name', () => {
  it.each([
    ['TAP', (got: number) => `TAP version 13\nnot ok 1 - test_player_health: Expected 100, got ${got}\n1..1\n`],
    ['bare not ok lines', (got: number) => `not ok 1 - test_player_health: Expected 100, got ${got}\n`],
    ["seed 002's ❌ lines", (got: number) => `❌ test_player_health: Expected 100, got ${got}\n`],
  ])('%s: "got -1" then "got -2" is the same failing test, not "fixed 1, 1 new"', (_label, output) => {
    const s = attemptsSummary([attempt(1, output(-1)), attempt(2, output(-2))]);
    expect(s.split('\n').slice(1, 3)).toEqual(['1. Initial: 1 test failed', '2. Retry 1: 1 test failed (no improvement)']);
  });

  it('a stored name that still carries its values (older runs) is the same test too', () => {
    expect(testIdentity({ name: 'test_player_health: Expected 100, got -1' })).toBe('test_player_health');
    expect(testIdentity({ name: 'test_player_health: Expected 100, got -2', file: 'tests/player.gd' })).toBe('tests/player.gd › test_player_health');
    // A colon in a name without values is part of the name.
    expect(testIdentity({ name: 'parse: handles spaces' })).toBe('parse: handles spaces');
  });
});

describe('remaining issues', () => {
  it('keep a snake_case test name as it is written ("test_player_health", seed 002), and read an error class as its label (issue 29 item 9)', () => {
    const s = attemptsSummary(
      [attempt(1, '❌ test_player_health: Expected 100, got 0\n')],
      ['test_player_health: Expected 100, got 0', 'test_take_damage: Signal not emitted', "compilation_error: Parse Error: Expected ')' on line 42"],
    );
    expect(s).toContain('- test_player_health: Expected 100, got 0');
    expect(s).toContain('- test_take_damage: Signal not emitted');
    expect(s).not.toMatch(/test player health|test take damage/);
    expect(s).toContain("- Compilation error: Parse Error: Expected ')' on line 42");
  });
});
