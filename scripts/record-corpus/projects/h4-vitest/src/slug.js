export function slugify(s) {
  return s.toLowerCase().replace(/\s+/g, '-');
}
export function words(s) {
  return s.split(' ');
}
export function meta(s) {
  return { slug: slugify(s), length: s.length, tags: words(s) };
}
