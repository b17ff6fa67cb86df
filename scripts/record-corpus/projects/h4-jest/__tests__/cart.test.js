const { total, summary, checkout, title } = require('../src/cart');

describe('cart', () => {
  describe('totals', () => {
    test('adds quantities', () => {
      expect(total([{ price: 2, qty: 3 }])).toBe(6);
    });

    test('summary object', () => {
      expect(summary([{ price: 1 }, { price: 2 }])).toEqual({
        count: 2,
        total: 3,
        currency: 'USD',
      });
    });
  });

  describe('checkout', () => {
    it('charges with VAT', () => {
      const pay = jest.fn();
      checkout([{ price: 10 }], pay);
      expect(pay).toHaveBeenCalledWith(12, 'EUR');
    });

    it('refuses an empty cart politely', () => {
      expect(() => checkout([], jest.fn())).toThrow('votre panier est vide');
    });
  });
});

test('título — ünïcödé', () => {
  expect(title('Zoë')).toMatch(/^Cart of/);
});
