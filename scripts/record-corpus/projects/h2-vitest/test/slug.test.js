import { describe, expect, it } from 'vitest';
import { slug, tags } from '../src/slug.js';

describe('slug', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Many   Spaces ', 'many-spaces'],
  ])('slug(%s)', (input, want) => {
    expect(slug(input)).toBe(want);
  });
});

describe('tags', () => {
  it('keeps lower case', () => {
    expect(tags('a, b')).toContain('a');
  });
});
