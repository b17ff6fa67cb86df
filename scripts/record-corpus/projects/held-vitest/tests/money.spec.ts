import { describe, expect, test } from 'vitest';
import { cents, split } from '../src/money';

describe('cents', () => {
  test('converts dollars', () => {
    expect(cents('1.25')).toBe(125);
  });
});

describe('split', () => {
  test('splits evenly', () => {
    expect(split(10, 3)).toStrictEqual([4, 3, 3]);
  });

  test('refuses zero ways', () => {
    expect(() => split(10, 0)).toThrow('cannot split');
  });
});
