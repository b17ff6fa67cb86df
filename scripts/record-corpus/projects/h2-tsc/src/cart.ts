interface Line { sku: string; qty: number }

export function total(lines: Line[]): number {
  return lines.reduce((sum, l) => sum + l.qty * l.price, 0);
}

export function add(lines: Line[], sku: string): Line[] {
  return [...lines, { sku, qty: '1' }];
}
