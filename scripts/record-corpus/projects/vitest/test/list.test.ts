import { describe, expect, it } from 'vitest';
import { add, parseList, user } from '../src/list';

describe('list', () => {
  it('adds numbers', () => {
    expect(add(2, 3)).toBe(5);
  });

  it('parses a list', () => {
    expect(parseList('a, b')).toEqual(['a', 'b']);
  });

  it('builds a user', () => {
    expect(user('ann')).toEqual({ name: 'ann', admin: false, tags: ['x'] });
  });

  it('passes', () => {
    expect(add(0, 0)).toBe(1);
  });
});

it('top-level failure', () => {
  expect(add(1, 1), 'one plus one').toBe(2);
});
