// API failures (rate limits, overloads, 5xx, connections towards an API) and the Retry-After wait the text names.
import { stripAnsi } from '../gates/parse-failures';
import { result, type Classification } from './classify-result';

// API failures as CLI agents (Claude Code's "API Error: 529 {…}") and HTTP clients print them. Checked only after
// test failures: a test suite for an API client prints these words in its assertions.
const RATE_LIMIT_LINES = [
  /^.*\bAPI Error:? \(?429\b.*$/m,
  /^.*\brate_limit_error\b.*$/m,
  /^.*\b429 Too Many Requests\b.*$/im,
  /^.*\bHTTP\/[\d.]+ 429\b.*$/m,
  /^.*\b(?:HTTP|status(?: code)?:?) 429\b.*$/im,
  /^.*\b(?:usage limit reached|rate limit (?:exceeded|reached))\b.*$/im,
];
const API_ERROR_LINES = [
  /^.*\boverloaded_error\b.*$/m,
  /^.*\bAPI Error:? \(?5\d\d\b.*$/m,
  /^.*"type":\s*"api_error".*$/m,
  /^.*\bHTTP\/[\d.]+ 5\d\d\b.*$/m,
  /^.*\b5\d\d (?:Server Error|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b.*$/im, // "502 Server Error: Bad Gateway" (requests)
  /^.*\bAPI Error:? \(?(?:Connection error|Request timed out)\b.*$/im,
];
const NETWORK_LINE = /^.*\b(?:ECONNRESET|ETIMEDOUT|EAI_AGAIN|socket hang up)\b.*$/m;
// A connection failure only says "API" when something names one: an API host, an API URL or the word.
const TOWARDS_API = /https?:\/\/[^\s/]*api|\bapi\.[\w-]+\.\w+|\bAPI\b/;

/** The last line that one of `patterns` (tried in order) matches: clients print retries first and the outcome last. */
function lastLineOf(text: string, patterns: RegExp[]): string | null {
  for (const re of patterns) {
    const all = [...text.matchAll(new RegExp(re.source, `${re.flags}g`))];
    if (all.length > 0) return all[all.length - 1]![0].trim();
  }
  return null;
}

export function apiFailure(out: string): Classification | null {
  const limited = lastLineOf(out, RATE_LIMIT_LINES);
  if (limited) return result('rate_limit', limited);
  const api = lastLineOf(out, API_ERROR_LINES);
  if (api) return result('api_error', api);
  const net = out.match(NETWORK_LINE);
  if (net && (TOWARDS_API.test(net[0]) || TOWARDS_API.test(out))) return result('api_error', net[0].trim());
  const retry = out.match(/^.*\bretry-after:\s*\S.*$/im);
  if (retry) return result('rate_limit', `The API asked to retry later: ${retry[0].trim()}`);
  return null;
}

function unitSeconds(unit: string | undefined): number {
  const u = (unit ?? 's').toLowerCase();
  if (u.startsWith('ms') || u.startsWith('milli')) return 0.001;
  if (u.startsWith('h')) return 3600;
  if (u.startsWith('m')) return 60;
  return 1;
}

/**
 * Seconds to wait, from the last "Retry-After: 3600" header, "retry after 30s", "retry-after-ms: 1500" or
 * '"retry_after": 30' in the text; an HTTP-date Retry-After counts from `now`. Null when there is none.
 */
export function retryAfterFromText(output: string, now: number = Date.now()): number | null {
  const text = stripAnsi(typeof output === 'string' ? output : '');
  let found: number | null = null;
  const re =
    /\bretry[-_ ]after(?:(-ms)|"?)\s*[:=]?\s*(?:(\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?\b|((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{1,2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT))/gi;
  for (const m of text.matchAll(re)) {
    if (m[4]) {
      const at = Date.parse(m[4]);
      if (Number.isFinite(at)) found = Math.max(0, Math.ceil((at - now) / 1000));
      continue;
    }
    const n = Number(m[2]) * unitSeconds(m[1] ? 'ms' : m[3]);
    if (Number.isFinite(n)) found = Math.round(n * 1000) / 1000;
  }
  return found;
}
