const test = require('node:test');
const assert = require('node:assert');
const { bump } = require('../version');

test('bumps the patch', () => {
  assert.strictEqual(bump('1.2.3'), '1.2.4');
});

test('looks like semver', () => {
  assert.match(bump('1.2'), /^\d+\.\d+\.\d+$/);
});
