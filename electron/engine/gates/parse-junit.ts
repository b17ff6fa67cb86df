// Failing tests from JUnit XML reports (any nesting of testsuites), read with fast-xml-parser.
import { XMLParser } from 'fast-xml-parser';
import { MAX_FAILED_TESTS, stripAnsi, extractExpectedActual, findLocation, MAX_MESSAGE_CHARS, clip, leadText, type FailedTest } from './failure-text';

type XmlNode = Record<string, unknown>;

function attrsOf(node: XmlNode): Record<string, string> {
  const a = node['@'];
  return a && typeof a === 'object' ? (a as Record<string, string>) : {};
}

function textOf(node: XmlNode): string {
  const t = node['#text'];
  return typeof t === 'string' ? t : '';
}

function childNodes(node: XmlNode, key: string): XmlNode[] {
  const v = node[key];
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === 'object') as XmlNode[]) : [];
}

function parseIntOrNull(v: string | undefined): number | null {
  if (v === undefined) return null;
  const n = Number.parseInt(v, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

function junitTestcase(tc: XmlNode): FailedTest | null {
  const problem = childNodes(tc, 'failure')[0] ?? childNodes(tc, 'error')[0];
  if (!problem) return null;
  const attrs = attrsOf(tc);
  const pAttrs = attrsOf(problem);
  const name = attrs.name?.trim() ?? '';
  const classname = (attrs.classname ?? attrs.class)?.trim();
  const fullName = classname && classname !== name ? (name ? `${classname} > ${name}` : classname) : name;
  const body = textOf(problem);
  const messageAttr = pAttrs.message?.trim();
  const message = messageAttr ? clip(stripAnsi(messageAttr), MAX_MESSAGE_CHARS) : leadText(body);

  let file = attrs.file ?? pAttrs.file ?? null;
  let line = parseIntOrNull(attrs.line ?? pAttrs.line);
  if (!file || line === null) {
    // pytest's classname "tests.test_calc" names the file tests/test_calc.py; vitest's is the file itself.
    const hint = file ?? (classname?.includes('/') ? classname : classname?.replace(/\./g, '/'));
    const loc = findLocation(body, hint);
    if (loc && (!file || loc.file.endsWith(file) || file.endsWith(loc.file))) {
      file ??= loc.file;
      line ??= loc.line;
    }
  }
  const { expected, actual } = extractExpectedActual(`${messageAttr ?? ''}\n${body}`);
  return { name: fullName || '(unnamed test)', message, expected, actual, file, line };
}

/** Every testcase with a failure or error, wherever it sits under testsuites/testsuite. */
export function parseJUnit(xml: string): FailedTest[] {
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    attributesGroupName: '@',
    textNodeName: '#text',
    alwaysCreateTextNode: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    // Also decodes numeric references such as &#10;, which pytest uses for newlines in attributes.
    htmlEntities: true,
    isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  });
  const root: unknown = parser.parse(xml);
  const out: FailedTest[] = [];
  const walk = (node: unknown, depth: number): void => {
    if (out.length >= MAX_FAILED_TESTS || depth > 64 || !node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const n of node) walk(n, depth + 1);
      return;
    }
    for (const [key, value] of Object.entries(node as XmlNode)) {
      if (key === '@' || key === '#text') continue;
      if (key === 'testcase' && Array.isArray(value)) {
        for (const tc of value) {
          if (out.length >= MAX_FAILED_TESTS) return;
          if (tc && typeof tc === 'object') {
            const f = junitTestcase(tc as XmlNode);
            if (f) out.push(f);
          }
        }
      } else {
        walk(value, depth + 1);
      }
    }
  };
  walk(root, 0);
  return out;
}
