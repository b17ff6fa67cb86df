// Syntax colours for diff lines: highlight.js's grammars through lowlight, only the languages a review meets (the rest
// would triple the bundle), one line at a time as the virtualized diff paints it, each line highlighted once.
import { createLowlight } from 'lowlight';
import bash from 'highlight.js/lib/languages/bash';
import css from 'highlight.js/lib/languages/css';
import go from 'highlight.js/lib/languages/go';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const lowlight = createLowlight({ bash, css, go, javascript, json, markdown, python, rust, typescript, xml, yaml });

const BY_EXT: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  css: 'css',
  json: 'json',
  md: 'markdown',
  sh: 'bash',
  go: 'go',
  rs: 'rust',
  html: 'xml',
  xml: 'xml',
  svg: 'xml',
  yml: 'yaml',
  yaml: 'yaml',
};

/** The grammar for a file by its extension, or null (shown uncoloured). */
export function languageOf(path: string): string | null {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (ext && BY_EXT[ext]) ?? null;
}

/** A piece of a highlighted line: its text and highlight.js's classes (`hljs-keyword` …), empty for plain text. */
export interface Token {
  text: string;
  cls: string;
}

type HastNode = { type: string; value?: string; properties?: { className?: unknown }; children?: HastNode[] };

function flatten(node: HastNode, cls: string, out: Token[]): void {
  if (node.type === 'text') {
    out.push({ text: node.value ?? '', cls });
    return;
  }
  const own = Array.isArray(node.properties?.className) ? (node.properties.className as string[]).join(' ') : '';
  for (const child of node.children ?? []) flatten(child, own ? (cls ? `${cls} ${own}` : own) : cls, out);
}

/**
 * A line's tokens. Each line is highlighted alone (a diff shows pieces of files, not whole ones), so a line inside a
 * multi-line comment or string is coloured as code; the lines git shows are mostly whole statements.
 */
export function highlightLine(text: string, language: string | null): Token[] {
  if (!language || text.length > 2000) return [{ text, cls: '' }];
  const out: Token[] = [];
  flatten(lowlight.highlight(language, text) as unknown as HastNode, '', out);
  return out;
}
