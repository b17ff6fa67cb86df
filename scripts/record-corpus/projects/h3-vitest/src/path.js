export function parts(p) {
  return p.split('/');
}
export function ext(p) {
  return p.slice(p.lastIndexOf('.'));
}
