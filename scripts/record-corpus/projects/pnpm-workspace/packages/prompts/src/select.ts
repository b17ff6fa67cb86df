export interface Choice {
  label: string;
  value: string;
}

/** The choice a key selects: digits pick by position (1-based), anything else by the label's first letter. */
export function select(choices: Choice[], key: string): Choice | undefined {
  const n = Number(key);
  if (Number.isInteger(n) && n >= 1) return choices[n];
  return choices.find((c) => c.label.toLowerCase().startsWith(key.toLowerCase()));
}
