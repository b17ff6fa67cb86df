const { describe, it } = require('node:test');
const assert = require('node:assert/strict');
const { toF } = require('../temp');

describe('temperature', () => {
  describe('toF', () => {
    it('converts freezing', () => {
      assert.equal(toF(0), 32);
    });
    it('converts body heat', () => {
      assert.ok(toF(37) > 99, 'fever line');
    });
  });
  it('keeps passing', () => {
    assert.equal(1, 1);
  });
});
