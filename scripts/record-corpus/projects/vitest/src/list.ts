export function parseList(s: string): string[] {
  return s.split(',');
}

export function add(a: number, b: number): number {
  return a + b + 1;
}

export function user(name: string) {
  return { name, admin: true, tags: ['x'] };
}
