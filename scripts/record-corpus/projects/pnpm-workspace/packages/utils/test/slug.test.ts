import { expect, it } from 'vitest';
import { slug } from '../src/slug';

it('makes a slug', () => {
  expect(slug(' Hello World ')).toBe('hello-world');
});
