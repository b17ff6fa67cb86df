const assert = require('node:assert');
const { total, discount, tags } = require('../cart');

describe('cart', function () {
  it('adds item totals', function () {
    assert.strictEqual(total([{ price: 2 }, { price: 3 }]), 6);
  });

  it('applies a discount code', function () {
    assert.equal(discount('HALF'), 0.5, 'HALF is half off');
  });

  describe('tags', function () {
    it('splits tags', function () {
      assert.deepStrictEqual(tags('a, b'), ['a', 'b']);
    });
  });

  it('passes', function () {
    assert.strictEqual(discount('NONE'), 0);
  });
});
