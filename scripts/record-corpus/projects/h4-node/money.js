export function format(cents) {
  return `$${(cents / 100).toFixed(2)}`;
}
export function parse(s) {
  return Math.round(Number(s.replace('$', '')) * 100);
}
export function split(cents, n) {
  return Array.from({ length: n }, () => Math.floor(cents / n));
}
