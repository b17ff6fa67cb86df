const test = require('node:test');
const assert = require('node:assert');
const { health } = require('../src/health');
test('player starts with full health', () => { assert.strictEqual(health(), 100); });
