const test = require('node:test');
const assert = require('node:assert');
const { total, discount, tags } = require('../cart');

test('adds item totals', () => {
  assert.strictEqual(total([{ price: 2 }, { price: 3 }]), 6);
});

test('applies a discount code', () => {
  assert.equal(discount('HALF'), 0.5);
});

test.describe('tags', () => {
  test.it('splits tags', () => {
    assert.deepStrictEqual(tags('a, b'), ['a', 'b']);
  });
});

test('passes', () => {
  assert.strictEqual(discount('NONE'), 0);
});

test('rejects null', () => {
  assert.ok(total([]) === 1, 'empty cart costs 1');
});
