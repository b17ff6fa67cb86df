import { expect, it } from 'vitest';
import { sum } from '../src/sum';

it('adds two numbers', () => {
  expect(sum(2, 3)).toBe(5);
});
