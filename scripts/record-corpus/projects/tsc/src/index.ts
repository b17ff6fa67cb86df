import { format } from './format';

export function count(n: number): number {
  const label: number = 'items';
  return n + label;
}

export const x = format(count(1));
