const test = require('node:test');
const assert = require('node:assert');
const { add, format } = require('../money');

test('money', async (t) => {
  await t.test('adds cents', () => {
    assert.strictEqual(add(0.1, 0.2), 0.3);
  });
  await t.test('formats', () => {
    assert.strictEqual(format(5), '$5.00');
  });
});
