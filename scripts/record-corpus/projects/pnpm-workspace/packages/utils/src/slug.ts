export function slug(s: string): string {
  return s.trim().toLowerCase().replace(/\s+/g, '-');
}
