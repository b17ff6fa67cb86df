// @vitest-environment jsdom
// The review on the run screen: files with counts and a filter, a comment written on a line, "Send to agent", answers under the comments.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { installFake } from '../test-helpers';
import { fileRows, diffFiles, reviewRows } from '../lib/review-files';
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
    // Both files are in one list, as a pull request shows them: the first `line 3` is src/player.ts's.
    fireEvent.click((await screen.findAllByRole('button', { name: 'comment on line 3' }))[0]!);
    fireEvent.change(screen.getByLabelText('Comment on src/player.ts:3'), { target: { value: 'Start health from a constant.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    await waitFor(() => expect(screen.getByLabelText('pending comments').textContent).toBe('1 comment'));
    expect(fake.calls.find((c) => c.method === 'review.comment')?.input).toMatchObject({ file: 'src/player.ts', line: 3 });
    // The comment hangs under its line, and can be edited while it is pending.
    const thread = await screen.findByRole('list', { name: 'comments on src/player.ts:3' });
    fireEvent.click(within(thread).getByRole('button', { name: 'Edit' }));
    fireEvent.change(within(thread).getByLabelText('comment text'), { target: { value: 'Start health from MAX_HEALTH.' } });
    fireEvent.click(within(thread).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('list', { name: 'comments on src/player.ts:3' }).textContent).toContain('MAX_HEALTH'));
    fireEvent.click(screen.getByRole('button', { name: 'Send to agent' }));
    const answer = await screen.findByLabelText('answer');
    expect(answer.textContent).toMatch(/^Done in d{10}: Changed as asked\.$/);
    expect(screen.getByLabelText('pending comments').textContent).toBe('0 comments');
  });

  it('selects a range with shift-click, moves by file and hunk with the keys, and `c` opens a comment on the selection', async () => {
    const fake = installFake();
    render(<ReviewPanel runId={RUN_IDS.health} />);
    const [three] = await screen.findAllByRole('button', { name: 'comment on line 3' });
    fireEvent.click(three!);
    fireEvent.click(screen.getAllByRole('button', { name: 'comment on line 4' })[0]!, { shiftKey: true });
    fireEvent.change(screen.getByLabelText('Comment on src/player.ts:3-4'), { target: { value: 'Both lines.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add comment' }));
    await waitFor(() => expect(fake.calls.find((c) => c.method === 'review.comment')?.input).toMatchObject({ line: 3, endLine: 4 }));
    const diff = screen.getByRole('region', { name: 'diff' });
    fireEvent.keyDown(diff, { key: ']' });
    fireEvent.keyDown(diff, { key: 'n' });
    fireEvent.keyDown(diff, { key: 'c' });
    // The next hunk after the file header is src/big.ts's; its first added line is 1.
    expect(await screen.findByLabelText('Comment on src/big.ts:1')).toBeTruthy();
  });

  it("opens the unchanged lines below a hunk, read at the diff's new side, and a comment can go on one of them", async () => {
    const fake = installFake();
    render(<ReviewPanel runId={RUN_IDS.health} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show the lines below' }));
    await waitFor(() => expect(screen.getByRole('region', { name: 'diff' }).textContent).toContain('rename(name: string) {'));
    expect(fake.calls.find((c) => c.method === 'review.fileLines')?.input).toEqual({
      runId: RUN_IDS.health,
      commit: 'c'.repeat(40),
      path: 'src/player.ts',
      from: 8,
      count: 2000,
    });
    // The file's end is known now: nothing is left to open.
    expect(screen.queryByRole('button', { name: /^Show .*line/ })).toBeNull();
    fireEvent.click(screen.getAllByRole('button', { name: 'comment on line 13' })[0]!);
    expect(screen.getByLabelText('Comment on src/player.ts:13')).toBeTruthy();
  });

  it("shows one step's change when chosen, and the whole run's again", async () => {
    const fake = installFake();
    render(<ReviewPanel runId={RUN_IDS.health} steps={[{ index: 2, title: 'Add damage()' }]} />);
    await screen.findAllByRole('button', { name: 'comment on line 3' });
    fireEvent.change(screen.getByLabelText('change shown'), { target: { value: '2' } });
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'review.diff').at(-1)?.input).toEqual({ runId: RUN_IDS.health, step: 2 }));
    expect(await screen.findByText(/^Step 2's change\./)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('change shown'), { target: { value: '' } });
    await waitFor(() => expect(fake.calls.filter((c) => c.method === 'review.diff').at(-1)?.input).toEqual({ runId: RUN_IDS.health }));
  });

  it('shows binary, renamed and deleted files as git says them, and folds a very large one until asked', () => {
    const diff = [
      'diff --git a/logo.png b/logo.png',
      'index 1..2 100644',
      'Binary files a/logo.png and b/logo.png differ',
      'diff --git a/old.ts b/new.ts',
      'similarity index 100%',
      'rename from old.ts',
      'rename to new.ts',
      'diff --git a/gone.ts b/gone.ts',
      'deleted file mode 100644',
      '--- a/gone.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      'diff --git a/huge.ts b/huge.ts',
      '--- a/huge.ts',
      '+++ b/huge.ts',
      '@@ -0,0 +1,3001 @@',
      ...Array.from({ length: 3001 }, (_, i) => `+line ${i}`),
      '',
    ].join('\n');
    const files = diffFiles(diff);
    const notes = (opened?: Set<string>) =>
      reviewRows(files, { split: false, opened }).flatMap((r) => (r.kind === 'note' ? [r.text] : r.kind === 'line' ? [r.line.kind] : []));
    expect(files.map((f) => [f.path, f.file.status])).toEqual([
      ['logo.png', 'modified'],
      ['new.ts', 'renamed'],
      ['gone.ts', 'deleted'],
      ['huge.ts', 'modified'],
    ]);
    expect(notes().slice(0, 4)).toEqual(['Binary files differ', 'File renamed without changes', 'del', 'Large diff: 3,001 changed lines are not shown.']);
    expect(notes(new Set(['huge.ts'])).length).toBe(3 + 3001);
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
