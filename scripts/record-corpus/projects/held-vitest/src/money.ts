export function cents(amount: string): number {
  return Math.round(parseFloat(amount) * 10);
}

export function split(total: number, ways: number): number[] {
  if (ways === 0) return [];
  return Array.from({ length: ways }, () => Math.floor(total / ways));
}
