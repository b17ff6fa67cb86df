// A sandboxed command that may reach no host needs no network relays: the library's bubblewrap command without them.
import { quote } from '@anthropic-ai/sandbox-runtime/dist/utils/shell-quote.js';

/**
 * The words of a string the library's `quote` wrote (bare words and single-quoted runs, `'"'"'` for a quote), or
 * null for anything else. Only that grammar: a string it cannot give back word for word is not read at all.
 */
export function quotedWords(s: string): string[] | null {
  const words: string[] = [];
  let i = 0;
  while (i < s.length) {
    let word = '';
    let any = false;
    while (i < s.length && s[i] !== ' ') {
      any = true;
      if (s[i] === "'") {
        const end = s.indexOf("'", i + 1);
        if (end < 0) return null;
        word += s.slice(i + 1, end);
        i = end + 1;
      } else if (s.startsWith(`"'"`, i)) {
        word += "'";
        i += 3;
      } else if (/[A-Za-z0-9_./:=@+,-]/.test(s[i]!)) {
        word += s[i];
        i++;
      } else {
        return null;
      }
    }
    if (!any) return null;
    words.push(word);
    i++;
  }
  return quote(words) === s ? words : null;
}

// The last line of the relays' start in the library's script (RELAYS_LISTEN): what follows it is the command itself.
const RELAYS_END = /^unset _srt_since _srt_now [^\n]*\n/m;

/**
 * The library starts two socat relays inside every network-restricted command (its proxies' TCP ends, on 3128 and
 * 1080) and waits until both listen: half of a short command's start in the sandbox. A command whose network list
 * is empty may reach no host through them anyway (the proxy refuses all), so it runs without: its network namespace
 * is still empty, and a client that tries the proxy variables is refused at once (the classifier reads that as the
 * sandbox's refusal). Unchanged when the command is not the shape this expects (another platform, another library
 * version, a profile passed through a file): it then starts as the library wrote it.
 */
export function withoutRelays(wrapped: string): string {
  const words = quotedWords(wrapped);
  if (!words || (words[0] !== 'bwrap' && !words[0]?.endsWith('/bwrap'))) return wrapped;
  const sep = words.lastIndexOf('--');
  // bwrap … -- <shell> -c '<shell> -c <script>': the script starts the relays, then runs the command.
  if (sep < 0 || sep !== words.length - 4 || words[sep + 2] !== '-c') return wrapped;
  const inner = quotedWords(words[sep + 3]!);
  if (!inner || inner.length !== 3 || inner[1] !== '-c' || !inner[2]!.startsWith('{ ')) return wrapped;
  const end = RELAYS_END.exec(inner[2]!);
  if (!end) return wrapped;
  const command = inner[2]!.slice(end.index + end[0].length);
  if (!command.trim()) return wrapped;
  return quote([...words.slice(0, sep + 3), command]);
}
