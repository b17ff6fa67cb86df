const assert = require('node:assert');
const { parse, later } = require('../clock');

describe('clock', function () {
  it('parses hh:mm', function () {
    assert.strictEqual(parse('01:30'), 90);
  });

  it('resolves in time', async function () {
    const v = await later(5);
    assert.strictEqual(v, 'early');
  });

  it('throws on garbage', function () {
    assert.throws(() => parse('xx'), /invalid time/);
  });
});
