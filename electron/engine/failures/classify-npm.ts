// What npm says about the project itself (no package.json where the gate runs, a package.json it cannot read, an
// engine it does not match), and npm's own headline for a failure nothing else names: never its "complete log" line.
import { result, type Classification } from './classify-result';

const NPM = '^npm (?:ERR!|error) ';

export function npmProjectFailure(out: string): Classification | null {
  const missing = out.match(
    new RegExp(`${NPM}enoent Could not read package\\.json: Error: ENOENT: no such file or directory, open '(.*?)[\\\\/]?package\\.json'`, 'm'),
  );
  if (missing) {
    return result('environment', `npm found no package.json in ${missing[1]}: the gate's command does not fit this repository`, [
      "Change the gate's command to this project's own test command (ratchet init proposes one), or run npm in the folder that has package.json.",
    ]);
  }
  if (new RegExp(`${NPM}code EJSONPARSE\\s*$`, 'm').test(out)) {
    const why = out.match(new RegExp(`${NPM}JSON\\.parse Invalid package\\.json: (?:JSONParseError: )?(.+?)(?: while parsing near .*)?$`, 'm'));
    return result('compilation_error', `package.json is not valid JSON${why ? `: ${why[1]}` : ''} (EJSONPARSE)`, [
      'Fix package.json: it must be strict JSON (no trailing commas, no comments).',
    ]);
  }
  if (new RegExp(`${NPM}code EBADENGINE\\s*$`, 'm').test(out)) {
    const required = out.match(new RegExp(`${NPM}notsup Required: (.+)$`, 'm'))?.[1]?.trim();
    const actual = out.match(new RegExp(`${NPM}notsup Actual:\\s+(.+)$`, 'm'))?.[1]?.trim();
    return result('environment', `npm: the project requires ${required ?? 'another engine'}, the gate has ${actual ?? 'another one'} (EBADENGINE)`, [
      'Make the gate run with the Node version the project asks for (the PATH Ratchet starts from, or a version manager in setup).',
    ]);
  }
  return null;
}

/** "npm failed (CODE): what npm said first", from npm's error block; null when npm printed no error code. */
// Built once: a pattern made per line cost a compile per line of a long output.
const CODE_LINE = new RegExp(`${NPM}code (\\S+)\\s*$`);

export function npmHeadline(out: string): string | null {
  // No npm error block at all: say so without splitting the output into lines.
  if (!/^npm (?:ERR!|error) code /m.test(out)) return null;
  const lines = out.split('\n');
  const at = lines.findIndex((l) => CODE_LINE.test(l));
  if (at < 0) return null;
  const code = new RegExp(`${NPM}code (\\S+)`).exec(lines[at]!)![1]!;
  const said: string[] = [];
  for (const line of lines.slice(at + 1)) {
    const m = new RegExp(`${NPM}?(.*)$`).exec(line);
    if (!m || !/^npm (?:ERR!|error)\b/.test(line)) break;
    const text = m[1]!.replace(/^(?:errno|syscall|path|code)\b.*$/, '').trim();
    if (/^A complete log of this run can be found in/.test(text)) break;
    if (text === '') {
      if (said.length > 0) break;
      continue;
    }
    said.push(text);
  }
  return said.length > 0 ? `npm failed (${code}): ${said.join(' ')}` : `npm failed (${code})`;
}
