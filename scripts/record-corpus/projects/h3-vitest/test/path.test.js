import { expect, test } from 'vitest';
import { ext, parts } from '../src/path.js';

test('splits a path', () => {
  expect(parts('/a/b')).toHaveLength(2);
});

test('finds the extension', () => {
  expect(ext('a.tar.gz')).toBe('tar.gz');
});
