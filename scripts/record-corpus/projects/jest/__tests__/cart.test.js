const { total, discount, tags } = require('../src/cart');

describe('cart', () => {
  test('adds item totals', () => {
    expect(total([{ price: 2, qty: 2 }, { price: 3, qty: 1 }])).toBe(7);
  });

  test('applies a discount code', () => {
    expect(discount('HALF')).toEqual(0.5);
  });

  test('splits tags', () => {
    expect(tags('a, b')).toEqual(['a', 'b']);
  });

  test('passes', () => {
    expect(discount('NONE')).toBe(0);
  });
});

test('throws on bad input', () => {
  expect(() => total(null)).toThrow('items required');
});
