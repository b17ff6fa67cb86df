const assert = require('node:assert/strict');
const { toF, parse } = require('../temp');

describe('temperature', function () {
  describe('toF', function () {
    it('converts freezing', function () {
      assert.equal(toF(0), 32);
    });
    it('converts boiling', function () {
      assert.equal(toF(100), 212, 'boiling point');
    });
  });
  it('parses a reading', function () {
    assert.deepEqual({ v: parse('21C') }, { v: 21.5 });
  });
});
