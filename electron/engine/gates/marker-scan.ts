// The failure markers of every parser turned into a line classifier fast enough for a 100 MB gate log: a line is tried
// only against the markers that can start with its first character, and a marker is tried only on a line holding the
// string (or character) it cannot match without. The markers stay data in their parsers (parse-failures.ts gathers
// them); this file only reads their expressions' source. Pure string work, linear in the text.

/** Whether a character code belongs to a set. */
type CharTest = (code: number) => boolean;

const NONE: CharTest = () => false;
const ANY: CharTest = () => true;
const DIGIT: CharTest = (c) => c >= 48 && c <= 57;
const WORD: CharTest = (c) => DIGIT(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const SPACE: CharTest = (c) =>
  c === 32 ||
  (c >= 9 && c <= 13) ||
  c === 0xa0 ||
  c === 0x1680 ||
  (c >= 0x2000 && c <= 0x200a) ||
  c === 0x2028 ||
  c === 0x2029 ||
  c === 0x202f ||
  c === 0x205f ||
  c === 0x3000 ||
  c === 0xfeff;

const union =
  (tests: readonly CharTest[]): CharTest =>
  (c) =>
    tests.some((t) => t(c));

/** The top-level alternatives of an expression's source ("a|b(c|d)" → ["a", "b(c|d)"]). */
export function alternatives(source: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(source.slice(start, i));
      start = i + 1;
    }
  }
  out.push(source.slice(start));
  return out;
}

/** The index just past the `)` closing the group opened at `open`. */
function groupEnd(src: string, open: number): number {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return src.length;
}

/** One escape (`src[i]` is the backslash): the characters it stands for and where the source goes on. */
function escapeAt(src: string, i: number, inClass: boolean): { test: CharTest; code: number | null; next: number; width: boolean } {
  const e = src[i + 1] ?? '';
  const one = (code: number, next = i + 2) => ({ test: (c: number) => c === code, code, next, width: true });
  switch (e) {
    case 'd':
      return { test: DIGIT, code: null, next: i + 2, width: true };
    case 'D':
      return { test: (c) => !DIGIT(c), code: null, next: i + 2, width: true };
    case 'w':
      return { test: WORD, code: null, next: i + 2, width: true };
    case 'W':
      return { test: (c) => !WORD(c), code: null, next: i + 2, width: true };
    case 's':
      return { test: SPACE, code: null, next: i + 2, width: true };
    case 'S':
      return { test: (c) => !SPACE(c), code: null, next: i + 2, width: true };
    case 't':
      return one(9);
    case 'n':
      return one(10);
    case 'r':
      return one(13);
    case 'f':
      return one(12);
    case 'v':
      return one(11);
    case 'b':
      return inClass ? one(8) : { test: NONE, code: null, next: i + 2, width: false };
    case 'B':
      return { test: NONE, code: null, next: i + 2, width: false };
    case 'x':
      return one(parseInt(src.slice(i + 2, i + 4), 16), i + 4);
    case 'u':
      if (src[i + 2] === '{') return { test: ANY, code: null, next: src.indexOf('}', i) + 1, width: true };
      return one(parseInt(src.slice(i + 2, i + 6), 16), i + 6);
    default:
      // A back-reference, a property class, a control letter: anything (a superset is always safe here).
      if (/[0-9pPkc]/.test(e)) return { test: ANY, code: null, next: i + 2, width: true };
      return one(e.charCodeAt(0));
  }
}

/** A character class starting at `src[i]` ("["): its test and where the source goes on. */
function classAt(src: string, i: number): { test: CharTest; next: number } {
  let j = i + 1;
  const negated = src[j] === '^';
  if (negated) j++;
  const parts: CharTest[] = [];
  let first = true;
  while (j < src.length && (src[j] !== ']' || first)) {
    first = false;
    let lo: { test: CharTest; code: number | null; next: number };
    if (src[j] === '\\') lo = escapeAt(src, j, true);
    else
      lo = {
        test: (
          (code) => (c: number) =>
            c === code
        )(src.charCodeAt(j)),
        code: src.charCodeAt(j),
        next: j + 1,
      };
    j = lo.next;
    if (src[j] === '-' && src[j + 1] !== ']' && lo.code !== null) {
      const hi = src[j + 1] === '\\' ? escapeAt(src, j + 1, true) : { code: src.charCodeAt(j + 1), next: j + 2 };
      if (hi.code === null) return { test: ANY, next: src.indexOf(']', j) + 1 };
      const [a, b] = [lo.code, hi.code];
      parts.push((c) => c >= a && c <= b);
      j = hi.next;
    } else {
      parts.push(lo.test);
    }
  }
  const any = union(parts);
  return { test: negated ? (c) => !any(c) : any, next: j + 1 };
}

/** What a piece of an expression can start with, and whether it can match nothing at all. */
interface Lead {
  test: CharTest;
  empty: boolean;
}

/** The characters a match of `src` can start with (a superset: never a character it could start with left out). */
export function leadOf(src: string): Lead {
  const alts = alternatives(src);
  if (alts.length > 1) {
    const leads = alts.map(leadOf);
    return { test: union(leads.map((l) => l.test)), empty: leads.some((l) => l.empty) };
  }
  const tests: CharTest[] = [];
  let i = 0;
  while (i < src.length) {
    const c = src[i]!;
    let atom: Lead;
    if (c === '\\') {
      const e = escapeAt(src, i, false);
      atom = { test: e.test, empty: !e.width };
      i = e.next;
    } else if (c === '[') {
      const k = classAt(src, i);
      atom = { test: k.test, empty: false };
      i = k.next;
    } else if (c === '(') {
      const end = groupEnd(src, i);
      const inner = src.slice(i + 1, end - 1);
      // Look-arounds match no character: the next piece still decides (a superset).
      if (/^\?(?:=|!|<=|<!)/.test(inner)) atom = { test: NONE, empty: true };
      else atom = leadOf(inner.replace(/^\?(?::|<[A-Za-z_$][\w$]*>)/, ''));
      i = end;
    } else if (c === '^' || c === '$') {
      atom = { test: NONE, empty: true };
      i++;
    } else if (c === '.') {
      atom = { test: ANY, empty: false };
      i++;
    } else {
      const code = src.charCodeAt(i);
      atom = { test: (x) => x === code, empty: false };
      i++;
    }
    // A quantifier that allows none makes the piece optional.
    const q = /^(?:[?*+]|\{(\d+)(?:,\d*)?\})\??/.exec(src.slice(i, i + 24));
    if (q) {
      i += q[0].length;
      if (q[0][0] === '?' || q[0][0] === '*' || q[1] === '0') atom = { test: atom.test, empty: true };
    }
    tests.push(atom.test);
    if (!atom.empty) return { test: union(tests), empty: false };
  }
  return { test: union(tests), empty: true };
}

/**
 * The runs of plain characters an alternative must contain, outside groups and optional parts
 * ("\\berror TS\\d+: " → ["error TS", ": "]).
 */
function literalRuns(alt: string): string[] {
  const runs: string[] = [];
  let run = '';
  let depth = 0;
  const flush = (): void => {
    if (run !== '') runs.push(run);
    run = '';
  };
  for (let i = 0; i < alt.length; i++) {
    let c = alt[i]!;
    if (depth > 0 || c === '(' || c === ')') {
      // A group (and a quantifier on it) is never part of a run: what it holds is read by requiredChars.
      if (c === '\\') i++;
      else if (c === '[') while (i < alt.length && alt[i] !== ']') i += alt[i] === '\\' ? 2 : 1;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      flush();
      continue;
    }
    let escaped = false;
    if (c === '\\') {
      const next = alt[i + 1] ?? '';
      i++;
      if (/[\w]/.test(next)) {
        // A class or escape of letters: its operand ("\\x41", "\\u001b", "\\cA", "\\k<n>") is not text either.
        if (next === 'c') i++;
        else if (next === 'x') i += 2;
        else if (next === 'u') i = alt[i + 1] === '{' ? alt.indexOf('}', i) : i + 4;
        else if ('pPk'.includes(next) && '{<'.includes(alt[i + 1] ?? '')) i = alt.indexOf(alt[i + 1] === '{' ? '}' : '>', i);
        else if (/[0-9]/.test(next)) while (/[0-9]/.test(alt[i + 1] ?? '')) i++;
        flush();
        continue;
      }
      c = next;
      escaped = true;
    } else if ('[.^$|'.includes(c)) {
      flush();
      if (c === '[') while (i < alt.length && alt[i] !== ']') i += alt[i] === '\\' ? 2 : 1;
      continue;
    }
    if (!escaped && '?*+{'.includes(c)) {
      // A quantifier's own characters ("{1,214}") are not text.
      if (c === '{') i = Math.max(i, alt.indexOf('}', i));
      flush();
      continue;
    }
    const q = alt[i + 1] ?? '';
    if (q !== '' && '?*{'.includes(q)) {
      flush();
      continue;
    }
    run += c;
  }
  flush();
  return runs;
}

/**
 * The longest run of plain characters an alternative must contain ("\\berror TS\\d+:" → "error TS"), outside groups and
 * optional parts; "" when it has none of `min` characters or more (then it cannot be looked for with indexOf).
 */
export function requiredLiteral(alt: string, min = 3): string {
  const best = literalRuns(alt).reduce((a, b) => (b.length > a.length ? b : a), '');
  return best.length >= min || (best !== '' && best === alt) ? best : '';
}

/**
 * The plain characters every match of `src` holds (those of its own runs, and those each alternative of a group holds
 * alike): "(?:a: |b: )" → {":", " "}.
 */
export function requiredChars(src: string): Set<string> {
  const alts = alternatives(src);
  if (alts.length > 1) {
    const sets = alts.map(requiredChars);
    return new Set([...sets[0]!].filter((c) => sets.every((s) => s.has(c))));
  }
  const out = new Set(literalRuns(src).join(''));
  for (let i = 0; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '[') while (i < src.length && src[i] !== ']') i += src[i] === '\\' ? 2 : 1;
    else if (src[i] === '(') {
      const end = groupEnd(src, i);
      const inner = src.slice(i + 1, end - 1);
      const optional = /^(?:[?*]|\{0[,}])/.test(src.slice(end, end + 3));
      if (!optional && !/^\?(?:=|!|<=|<!)/.test(inner)) for (const c of requiredChars(inner.replace(/^\?(?::|<[A-Za-z_$][\w$]*>)/, ''))) out.add(c);
      i = end - 1;
    }
  }
  return out;
}

/** How often a character turns up in test output, roughly: indexOf is fastest for a string that starts with a rare one. */
function commonness(ch: string): number {
  if (ch === ' ') return 100;
  // English letters by frequency.
  const letter = 'etaoinshrdlcumwfgypbvkjxqz'.indexOf(ch);
  if (letter >= 0) return 60 - letter;
  if (/[0-9]/.test(ch)) return 40;
  if (/[A-Z]/.test(ch)) return 10;
  return ch.charCodeAt(0) < 128 ? 5 : 1;
}

/** What to look for with indexOf so that a line without it cannot match `alt`: "" when there is nothing. */
export function needleOf(alt: string): string {
  const literal = requiredLiteral(alt, 2);
  if (literal !== '') {
    let at = 0;
    for (let i = 1; i < literal.length; i++) if (commonness(literal[i]!) < commonness(literal[at]!)) at = i;
    return literal.slice(at);
  }
  const chars = [...requiredChars(alt)].filter((c) => c !== '\n');
  return chars.sort((a, b) => commonness(a) - commonness(b))[0] ?? '';
}

interface Marker {
  /** The alternative on its own: sticky at a line start (anchored ones), or over one line (the others). */
  re: RegExp;
  lead: CharTest;
  /** Index into the scanner's needle positions, or -1 when there is no needle. */
  needle: number;
}

interface Lookup {
  markers: Marker[];
  prefix: boolean;
}

export interface LineMarkersSource {
  /** Alternatives that match at a line start (their leading "^" removed). */
  anchored: readonly string[];
  /** Alternatives that match anywhere in a line. */
  loose: readonly string[];
  /** A prefix a line may carry before a line-start marker (a monorepo runner's), its leading "^" removed; or null. */
  prefix: string | null;
}

/** The markers compiled once: expressions, first characters, needles. Scanners made from it hold the per-text state. */
export class LineMarkers {
  readonly needles: string[] = [];
  readonly anchored: Marker[];
  readonly loose: Marker[];
  readonly prefix: Marker | null;
  /** Per first character, the anchored markers that can start with it and whether a prefix can (filled as met). */
  private readonly ascii: (Lookup | undefined)[] = new Array<Lookup | undefined>(128).fill(undefined);
  private readonly other = new Map<number, Lookup>();

  constructor(src: LineMarkersSource) {
    const needle = (alt: string): number => {
      const n = needleOf(alt);
      if (n === '') return -1;
      const at = this.needles.indexOf(n);
      return at >= 0 ? at : this.needles.push(n) - 1;
    };
    const lead = (alt: string): CharTest => {
      const l = leadOf(alt);
      return l.empty ? ANY : l.test;
    };
    this.anchored = src.anchored.map((alt) => ({ re: new RegExp(alt, 'ym'), lead: lead(alt), needle: needle(alt) }));
    this.loose = src.loose.map((alt) => ({ re: new RegExp(alt, 'm'), lead: ANY, needle: needle(alt) }));
    this.prefix = src.prefix === null ? null : { re: new RegExp(src.prefix, 'ym'), lead: lead(src.prefix), needle: needle(src.prefix) };
  }

  /** The anchored markers a line starting with this character code can match, and whether a prefix can stand there. */
  lookup(code: number): Lookup {
    const known = code < 128 ? this.ascii[code] : this.other.get(code);
    if (known) return known;
    const made: Lookup = { markers: this.anchored.filter((m) => m.lead(code)), prefix: this.prefix !== null && this.prefix.lead(code) };
    if (code < 128) this.ascii[code] = made;
    else this.other.set(code, made);
    return made;
  }

  startingWith(code: number): Marker[] {
    return this.lookup(code).markers;
  }

  scanner(): LineScanner {
    return new LineScanner(this);
  }
}

/**
 * Finds marked lines in one text after another. It remembers, for the text it last read, where each needle next
 * occurs, so every needle costs one indexOf pass over a text whatever the number of lines.
 */
export class LineScanner {
  private text: string | null = null;
  private readonly next: Int32Array;
  /** Complete lines passed over by the last `find` before the line it returned (or before the text's end). */
  passed = 0;

  constructor(private readonly markers: LineMarkers) {
    this.next = new Int32Array(markers.needles.length);
  }

  private use(text: string): void {
    if (this.text === text) return;
    this.text = text;
    // -2: not looked for yet; -1: not in the rest of the text.
    this.next.fill(-2);
  }

  /** Whether needle `k` occurs in [pos, end). */
  private has(k: number, pos: number, end: number): boolean {
    if (k < 0) return true;
    let at = this.next[k]!;
    if (at === -1) return false;
    if (at < pos) {
      at = this.text!.indexOf(this.markers.needles[k]!, pos);
      this.next[k] = at;
      if (at < 0) return false;
    }
    return at < end;
  }

  /** The first position at or after `pos` where some loose marker's needle occurs (text length when none). */
  private looseFrom(pos: number): number {
    let min = this.text!.length;
    for (const m of this.markers.loose) {
      if (m.needle < 0) return pos;
      if (this.has(m.needle, pos, min)) min = this.next[m.needle]!;
    }
    return min;
  }

  /** Whether the line [pos, end) of `text` is marked by a line-start marker, a prefix allowed before it. */
  private anchoredAt(text: string, pos: number, end: number, prefixed: boolean): boolean {
    const { markers, prefix } = this.markers.lookup(text.charCodeAt(pos));
    for (let i = 0; i < markers.length; i++) {
      const m = markers[i]!;
      if (!this.has(m.needle, pos, end)) continue;
      m.re.lastIndex = pos;
      if (m.re.test(text)) return true;
    }
    const p = this.markers.prefix;
    if (prefixed || !prefix || !p || !this.has(p.needle, pos, end)) return false;
    p.re.lastIndex = pos;
    return p.re.test(text) && this.anchoredAt(text, p.re.lastIndex, end, true);
  }

  private looseAt(text: string, pos: number, end: number): boolean {
    let line: string | null = null;
    for (const m of this.markers.loose) {
      if (!this.has(m.needle, pos, end)) continue;
      line ??= text.slice(pos, end);
      if (m.re.test(line)) return true;
    }
    return false;
  }

  /** Whether one line (no newline in it) is marked. */
  test(line: string): boolean {
    this.use(line);
    return this.anchoredAt(line, 0, line.length, false) || this.looseAt(line, 0, line.length);
  }

  /**
   * The start of the first marked line at or after `from` (a line start) in `text`, whose last line ends with "\n";
   * -1 when there is none. `passed` then says how many lines came before it (or before the end).
   */
  find(text: string, from: number): number {
    this.use(text);
    let loose = this.looseFrom(from);
    let lines = 0;
    for (let pos = from; pos < text.length; lines++) {
      let end = text.indexOf('\n', pos);
      if (end < 0) end = text.length;
      if (this.anchoredAt(text, pos, end, false) || (loose < end && this.looseAt(text, pos, end))) {
        this.passed = lines;
        return pos;
      }
      pos = end + 1;
      if (loose < pos) loose = this.looseFrom(pos);
    }
    this.passed = lines;
    return -1;
  }
}
