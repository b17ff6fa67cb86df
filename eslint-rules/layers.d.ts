// Types of the layer map for the TypeScript that reads it (its test); the rule itself is plain JS, loaded by ESLint's config.
import type { Rule } from 'eslint';

export const LAYERS: Record<string, string[]>;
export function zoneOf(rel: string): string | null;
export const layersRule: Rule.RuleModule;
export const SQL_HOME: string;
export const storeSqlRule: Rule.RuleModule;
export const ENGINE: string;
export const ENGINE_LEVELS: string[][];
export const ENGINE_PURE: string[];
export function engineUnitOf(relToEngine: string): string;
export function engineLevelOf(unit: string): number | undefined;
export function isPure(relToEngine: string): boolean;
export function engineImportProblem(fromRel: string, toRel: string): string | null;
export const FRONT_DOOR_USERS: string[];
