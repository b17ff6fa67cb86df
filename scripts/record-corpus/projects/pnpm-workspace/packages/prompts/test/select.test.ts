import { describe, expect, it } from 'vitest';
import { select } from '../src/select';

const choices = [
  { label: 'Apple', value: 'a' },
  { label: 'Banana', value: 'b' },
  { label: 'Cherry', value: 'c' },
];

describe('select', () => {
  it('picks by first letter', () => {
    expect(select(choices, 'b')?.value).toBe('b');
  });

  it('picks by position', () => {
    expect(select(choices, '1')?.value).toBe('a');
  });
});
