// Test helper: a tiny Node project whose gate is `node --test`, and scripted agent turns that write it step by step.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptContent, ScriptResponse, ScriptRule } from '../../scripted/server';
import { makeRepo, tempDir } from './temp-repo';

export const EDIT = 'str_replace_based_edit_tool';

export function create(path: string, file_text: string): ScriptContent {
  return { type: 'tool_use', name: EDIT, input: { command: 'create', path, file_text } };
}

export function replace(path: string, old_str: string, new_str: string): ScriptContent {
  return { type: 'tool_use', name: EDIT, input: { command: 'str_replace', path, old_str, new_str } };
}

/** One API response made of the given blocks. */
export function turn(...content: ScriptContent[]): ScriptResponse {
  return { content };
}

export function say(text: string): ScriptResponse {
  return { content: [{ type: 'text', text }] };
}

/** Rules that answer requests strictly in order: one entry per API call. */
export function queue(...responses: ScriptResponse[]): ScriptRule[] {
  return responses.map((response) => ({ times: 1, response }));
}

export function testFile(name: string, module: string, fn: string, args: [number, number], expected: number): string {
  return [
    "import { test } from 'node:test';",
    "import assert from 'node:assert/strict';",
    `import { ${fn} } from '../src/${module}.mjs';`,
    `test('${name}', () => { assert.equal(${fn}(${args.join(', ')}), ${expected}); });`,
    '',
  ].join('\n');
}

export const THREE_STEPS = `
gates:
  test: { run: "node --test --test-reporter=tap", timeout: 60 }
agent: { kind: anthropic, model: claude-sonnet-5-5, max_turns: 10 }
max_retries: 3
backoff: { base_s: 0, max_s: 0, jitter: 0 }
steps:
  - title: Add add()
    prompt: Write src/add.mjs exporting add(a, b) with a test.
  - title: Add mul()
    prompt: Write src/mul.mjs exporting mul(a, b) with a test.
  - title: Add sub()
    prompt: Write src/sub.mjs exporting sub(a, b) with a test.
`;

/** A repository with a package.json (ESM) and a workflow file outside it. */
export function fixtureProject(workflow = THREE_STEPS): { repo: string; workflowFile: string; home: string } {
  const repo = makeRepo({ 'package.json': '{ "name": "calc", "type": "module", "private": true }\n', 'README.md': '# calc\n' });
  const dir = tempDir('ratchet-wf-');
  const workflowFile = join(dir, 'ratchet.yml');
  writeFileSync(workflowFile, workflow);
  return { repo, workflowFile, home: join(tempDir('ratchet-home-'), 'home') };
}
