// @vitest-environment jsdom
// The review on the run screen: files with counts and a filter, a comment written on a line, "Send to agent", answers under the comments.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { fileRows, diffFiles } from '../lib/review-files';
import { makeReviewDiff } from '../../dev/fixtures-review';
import { ReviewPanel } from './ReviewPanel';

afterEach(() => cleanup());

describe('ReviewPanel', () => {
  it('lists the files with counts, filters them, takes a comment on a line, sends it and shows the answer under it', async () => {
    const fake = installFake();
    render(<ReviewPanel runId={RUN_IDS.health} />);
    const files = await screen.findByRole('navigation', { name: 'changed files' });
    await waitFor(() => expect(files.textContent).toContain('src/player.ts'));
    expect(files.textContent).toContain('+2');
    expect(files.textContent).toContain('+40');
    fireEvent.change(screen.getByLabelText('filter files'), { target: { value: 'big' } });
    expect(files.textContent).not.toContain('src/player.ts');
    fireEvent.change(screen.getByLabelText('filter files'), { target: { value: '' } });
    fireEvent.click(within(files).getByRole('button', { name: 'src/player.ts' }));
    fireEvent.click(await screen.findByRole('button', { name: 'comment on line 3' }));
    fireEvent.change(screen.getByLabelText('Comment on src/player.ts:3'), { target: { value: 'Start health from a constant.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    await waitFor(() => expect(screen.getByLabelText('pending comments').textContent).toBe('1 comment'));
    expect(fake.calls.find((c) => c.method === 'review.comment')?.input).toMatchObject({ file: 'src/player.ts', line: 3 });
    fireEvent.click(screen.getByRole('button', { name: 'Send to agent' }));
    const answer = await screen.findByLabelText('answer');
    expect(answer.textContent).toMatch(/^Done in d{10}: Changed as asked\.$/);
    expect(screen.getByLabelText('pending comments').textContent).toBe('0 comments');
  });

  it('pairs deletions with the additions that replace them in the split view', () => {
    const diff = 'diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n';
    const rows = fileRows(diffFiles(diff)[0]!.file, true);
    expect(rows.map((r) => (r.kind === 'pair' ? `${r.left?.text ?? ''}|${r.right?.text ?? ''}` : r.kind))).toEqual(['hunk', 'a|a', 'b|B', 'c|c']);
    expect(diffFiles(makeReviewDiff(10)).map((f) => [f.path, f.added, f.removed])).toEqual([
      ['src/player.ts', 2, 0],
      ['src/big.ts', 10, 0],
    ]);
  });
});
