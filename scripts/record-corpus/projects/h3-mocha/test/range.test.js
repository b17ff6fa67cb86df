const assert = require('node:assert');
const { range, at } = require('../range');

describe('range', function () {
  it('starts at zero', function () {
    assert.deepStrictEqual(range(3), [0, 1, 2]);
  });
  it('reads the last item', function () {
    assert.strictEqual(at(range(3), 3), 3);
  });
});
