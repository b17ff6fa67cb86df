export function slug(s) {
  return s.trim().toLowerCase().replace(/ /g, '-');
}
export function tags(s) {
  return s.split(/\s*,\s*/).filter(Boolean).map((t) => t.toUpperCase());
}
