// What a review round tells the agent (every comment with its file, lines and the hunk it points at, and how to answer
// each), and the answers read back from the agent's final message. Pure: the round (review-round.ts) does the I/O.
import type { CommentVerdict } from '../store/review-queries';
import { boundText } from '../gates/bounded-output';

export interface CommentForAgent {
  id: number;
  file: string;
  line: number;
  endLine: number;
  body: string;
  /** The hunk of the run's change the comment points at (git's text), or null when the line is outside the change. */
  hunk: string | null;
}

/** A hunk past this many characters is shortened (head and tail kept): the comment's own lines are named anyway. */
const MAX_HUNK_CHARS = 4000;

const lines = (c: { line: number; endLine: number }) => (c.endLine > c.line ? `${c.line}-${c.endLine}` : `${c.line}`);

/** The step a review round runs as: its title and its prompt, with every comment numbered from 1. */
export function reviewStep(comments: readonly CommentForAgent[], onStep: number | null): { title: string; prompt: string } {
  const n = comments.length;
  const title = `Address review${onStep !== null ? ` of step ${onStep}` : ''} (${n} comment${n === 1 ? '' : 's'})`;
  const parts = [
    `A reviewer read this run's change and left ${n} comment${n === 1 ? '' : 's'} on its diff. Address every one in this step.`,
    'Each comment names a file and line(s) of the current code (new side of the diff) and shows the hunk of the change it points at.',
    ...comments.map((c, i) =>
      [
        `### Comment ${i + 1}: ${c.file}:${lines(c)}`,
        c.body.trim(),
        c.hunk ? `\`\`\`diff\n${boundText(c.hunk, MAX_HUNK_CHARS)}\n\`\`\`` : "(the line is outside the run's change)",
      ].join('\n\n'),
    ),
    [
      'When you are done, end your final message with one answer line per comment, numbered as above, saying done (and what you changed) or declined (and why not):',
      '[1] done: <what you changed>',
      '[2] declined: <why you did not change it>',
    ].join('\n'),
  ];
  return { title, prompt: parts.join('\n\n') };
}

export interface ParsedAnswer {
  /** The comment's number in the prompt (1-based). */
  n: number;
  verdict: Exclude<CommentVerdict, 'unanswered'>;
  text: string;
}

const ANSWER = /^\s*(?:[-*]\s*)?\[(\d{1,4})\]\s*\**\s*(done|declined|not done|won't do|wont do)\b\**\s*[:\-–—]?\s*(.*)$/i;

/**
 * The answers in the agent's final text: `[k] done: …` or `[k] declined: …` lines (a following line that is not another
 * answer continues it, up to a blank line). The last answer a comment gets wins; linear in the text's size.
 */
export function parseAnswers(text: string): Map<number, ParsedAnswer> {
  const out = new Map<number, ParsedAnswer>();
  let open: ParsedAnswer | null = null;
  for (const line of text.split('\n')) {
    const m = ANSWER.exec(line);
    if (m) {
      const word = m[2]!.toLowerCase();
      open = { n: Number(m[1]), verdict: word === 'done' ? 'done' : 'declined', text: m[3]!.trim() };
      out.set(open.n, open);
      continue;
    }
    if (!open) continue;
    if (!line.trim()) open = null;
    else open.text = `${open.text}\n${line.trim()}`.trim();
  }
  return out;
}

/** The step whose change holds every comment (each comment's line last changed by that step), else null. */
export function commonStep(steps: ReadonlyArray<number | null>): number | null {
  const first = steps[0];
  if (first === undefined || first === null) return null;
  return steps.every((s) => s === first) ? first : null;
}
