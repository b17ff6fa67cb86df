import { describe, expect, it, test } from 'vitest';
import { meta, slugify, words } from '../src/slug.js';

describe('slugify', () => {
  test.each([
    ['Hello World', 'hello-world'],
    ['Crème Brûlée', 'creme-brulee'],
    ['  trim me ', 'trim-me'],
  ])('slugify(%s) -> %s', (input, want) => {
    expect(slugify(input)).toBe(want);
  });

  describe('words', () => {
    it('keeps order', () => {
      expect(words('b a')).toStrictEqual(['a', 'b']);
    });
    it('has the word', () => {
      expect(words('x y')).toContain('z');
    });
  });
});

it('meta is complete', () => {
  expect(meta('A b')).toMatchObject({ slug: 'a-b', length: 4 });
});
