export const label = (n) => `#${n}`;
