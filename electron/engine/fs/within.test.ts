// The project's one containment check: `..x` is a name, not a way out.
import { describe, expect, it } from 'vitest';
import { isBelow, isWithin } from './within';

describe('isWithin / isBelow', () => {
  it('takes the folder itself and what lies below it, a child named `..x` included', () => {
    expect(isWithin('/a/b', '/a/b')).toBe(true);
    expect(isWithin('/a/b', '/a/b/c')).toBe(true);
    expect(isWithin('/a/b', '/a/b/..x')).toBe(true);
    expect(isBelow('/a/b', '/a/b/..x/y')).toBe(true);
    expect(isBelow('/a/b', '/a/b')).toBe(false);
  });
  it('refuses the parent, a sibling sharing the prefix, and relative escapes', () => {
    expect(isWithin('/a/b', '/a')).toBe(false);
    expect(isWithin('/a/b', '/a/bc')).toBe(false);
    expect(isWithin('/a/b', '/a/b/../c')).toBe(false);
    expect(isBelow('/a/b', '/x/y')).toBe(false);
  });
});
