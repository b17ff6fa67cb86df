import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { format, parse, split } from '../money.js';

describe('money', () => {
  describe('format', () => {
    it('formats cents', () => {
      assert.equal(format(1999), '$19.90');
    });
    it('formats euros with the € sign', () => {
      assert.match(format(500), /€/);
    });
  });

  it('splits without losing a cent', () => {
    assert.deepStrictEqual(split(100, 3), [34, 33, 33]);
  });
});

test('parse', async (t) => {
  await t.test('plain', () => {
    assert.strictEqual(parse('$1.50'), 150);
  });
  await t.test('with commas', () => {
    assert.strictEqual(parse('$1,000.00'), 100000);
  });
});
