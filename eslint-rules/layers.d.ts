// Types of the layer map for the TypeScript that reads it (its test); the rule itself is plain JS, loaded by ESLint's config.
import type { Rule } from 'eslint';

export const LAYERS: Record<string, string[]>;
export function zoneOf(rel: string): string | null;
export const layersRule: Rule.RuleModule;
export const SQL_HOME: string;
export const storeSqlRule: Rule.RuleModule;
