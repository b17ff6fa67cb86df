import { test } from 'node:test';
import assert from 'node:assert/strict';
import { label } from '../src/label.mjs';

test('pads', () => {
  assert.equal(label(7), '#0007');
});
