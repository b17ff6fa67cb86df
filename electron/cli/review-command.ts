// `ratchet review <run-id>`: line comments on a run's change (--comment <file>:<line> "<text>", --from <review.md>), sent
// to the agent in one round (electron/engine/review/), then each comment's answer; --list shows them without sending.
import { readFileSync } from 'node:fs';
import { ReviewDoc, type ReviewCommentDoc } from '../../shared/contract/review';
import { commentDoc, RatchetError, roundDoc, type Engine, type NewReviewComment } from '../engine';
import { parseTokens, UsageError, withProgress, type CliIo } from './cli-kit';

/** `<file>:<line>` or `<file>:<first>-<last>`. */
export function parseLocation(text: string): { file: string; line: number; endLine: number } {
  const m = /^(.+):(\d+)(?:-(\d+))?$/.exec(text.trim());
  if (!m) throw new UsageError(`A comment's place is <file>:<line> or <file>:<first>-<last> (got \`${text}\`).`);
  const line = Number(m[2]);
  const endLine = m[3] === undefined ? line : Number(m[3]);
  if (line < 1 || endLine < line) throw new UsageError(`Lines count from 1, the first before the last (got \`${text}\`).`);
  return { file: m[1]!, line, endLine };
}

/**
 * A review file: each comment a heading `## <file>:<line>` (or `<first>-<last>`), its text the lines below it up to the
 * next such heading. Text before the first heading is not a comment.
 */
export function parseReviewFile(text: string): NewReviewComment[] {
  const out: Array<NewReviewComment & { lines: string[] }> = [];
  for (const line of text.split('\n')) {
    const h = /^#{1,6}\s+`?([^`\s]+:\d+(?:-\d+)?)`?\s*$/.exec(line.trimEnd());
    if (h) {
      out.push({ ...parseLocation(h[1]!), body: '', lines: [] });
      continue;
    }
    out.at(-1)?.lines.push(line);
  }
  return out.map(({ lines, ...c }) => {
    const body = lines.join('\n').trim();
    if (!body) throw new UsageError(`The comment on ${c.file}:${c.line} in the review file has no text.`);
    return { ...c, body, source: 'cli' as const };
  });
}

/** The --comment flags in order, each with the text that follows it on the command line. */
function commentsOf(tokens: ReturnType<typeof parseTokens>['tokens']): { comments: NewReviewComment[]; used: Set<number> } {
  const comments: NewReviewComment[] = [];
  const used = new Set<number>();
  const list = tokens;
  list.forEach((t, i) => {
    if (t.kind !== 'option' || t.name !== 'comment') return;
    const next = list[i + 1];
    if (!next || next.kind !== 'positional') throw new UsageError(`--comment ${t.value ?? ''} takes its text after it: --comment <file>:<line> "<text>".`);
    used.add(next.index);
    comments.push({ ...parseLocation(t.value ?? ''), body: next.value, source: 'cli' });
  });
  return { comments, used };
}

function answerLine(c: ReviewCommentDoc): string {
  const where = `${c.file}:${c.line}${c.endLine > c.line ? `-${c.endLine}` : ''}`;
  const now = c.outdated ? ' (outdated)' : c.anchorLine !== null && c.anchorLine !== c.line ? ` (now line ${c.anchorLine})` : '';
  const verdict = c.state === 'answered' ? `${c.verdict}${c.addressedCommit ? ` in ${c.addressedCommit.slice(0, 10)}` : ''}` : c.state;
  const answer = c.answer ? `\n    ${c.answer.replace(/\n/g, '\n    ')}` : '';
  return `  ${where}${now}: ${verdict}\n    > ${c.body.replace(/\n/g, '\n    > ')}${answer}`;
}

export async function cmdReview(engine: Engine, args: string[], io: CliIo): Promise<number> {
  const { values, positionals, tokens } = parseTokens(args, {
    comment: { type: 'string', multiple: true },
    from: { type: 'string' },
    list: { type: 'boolean' },
    trust: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const { comments, used } = commentsOf(tokens);
  const positional = tokens.filter((t) => t.kind === 'positional' && !used.has(t.index));
  if (positional.length !== 1 || positionals.length !== positional.length + used.size)
    throw new UsageError('`ratchet review` takes exactly one run id, then each --comment <file>:<line> "<text>".');
  const runId = positional[0]!.kind === 'positional' ? positional[0]!.value : '';
  if (values.from) {
    let text: string;
    try {
      text = readFileSync(values.from, 'utf8');
    } catch (err) {
      throw new RatchetError('bad_arguments', `Cannot read the review file ${values.from}: ${(err as Error).message}`);
    }
    comments.push(...parseReviewFile(text));
  }
  if (values.list && comments.length) throw new UsageError('`ratchet review --list` shows the comments; add comments without --list.');
  const out = (s: string) => io.stdout.write(`${s}\n`);
  const print = async (code: number) => {
    const { comments: rows, rounds } = await engine.review.list(runId);
    const doc = ReviewDoc.parse({ runId, comments: rows.map(commentDoc), rounds: rounds.map(roundDoc) });
    if (values.json) out(JSON.stringify(doc, null, 2));
    else {
      out(
        `run ${runId}: ${doc.comments.length} comment${doc.comments.length === 1 ? '' : 's'}, ${doc.rounds.length} round${doc.rounds.length === 1 ? '' : 's'}`,
      );
      for (const c of doc.comments) out(answerLine(c));
    }
    return code;
  };
  if (values.list) return print(0);
  // Every comment is checked against the branch before any is kept: a bad line keeps none of them.
  for (const c of comments) await engine.review.check(runId, c);
  for (const c of comments) await engine.review.comment(runId, c);
  const total = (engine.plan(runId)?.steps.length ?? 0) + 1;
  const code = await withProgress(engine, io, false, total, (signal) => engine.review.send(runId, { signal, trust: values.trust }).then((r) => r.doc));
  return print(code);
}
