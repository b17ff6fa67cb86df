// Which issue a reference names, and the task written from an issue and its comments (pure).
import { describe, expect, it } from 'vitest';
import { issueTask, parseIssueRef, workflowWithIssue } from './issue-intake';
import { WorkflowFile } from '../workflow/schema';

describe('parseIssueRef', () => {
  it('takes a number, #number, or an issue page on github.com, an Enterprise host or the API', () => {
    expect(parseIssueRef('12')).toEqual({ number: 12, repo: null });
    expect(parseIssueRef(' #7 ')).toEqual({ number: 7, repo: null });
    expect(parseIssueRef('https://github.com/acme/widget/issues/31')).toEqual({ number: 31, repo: { owner: 'acme', name: 'widget' } });
    expect(parseIssueRef('https://git.example.com/acme/widget/issues/3/')).toEqual({ number: 3, repo: { owner: 'acme', name: 'widget' } });
    expect(parseIssueRef('https://git.example.com/api/v3/repos/acme/widget/issues/3')).toEqual({ number: 3, repo: { owner: 'acme', name: 'widget' } });
  });

  it('refuses what is not an issue (a pull request, a repository, text) with what to give instead', () => {
    for (const bad of ['https://github.com/acme/widget/pull/3', 'https://github.com/acme/widget', 'fix the bug', '0', 'file:///acme/widget/issues/3'])
      expect(() => parseIssueRef(bad), bad).toThrow(/give its number \(12\) or its page's URL/);
  });
});

describe('issueTask', () => {
  it('the title is the issue’s; the description its body, then each comment in order, then where it came from', () => {
    const t = issueTask({
      number: 5,
      url: 'https://github.com/acme/widget/issues/5',
      title: '  Crash on\nstart ',
      body: 'It crashes.',
      comments: ['Since 1.2.', '', 'Me too.'],
    });
    expect(t.title).toBe('Crash on start');
    expect(t.description).toBe(
      'It crashes.\n\n## Comments on the issue\n\n### Comment 1\n\nSince 1.2.\n\n### Comment 2\n\nMe too.\n\nFrom issue #5: https://github.com/acme/widget/issues/5',
    );
    expect(issueTask({ number: 6, url: 'u', title: '', body: '', comments: [] })).toEqual({
      title: 'Issue #6',
      description: '(The issue has no description.)\n\nFrom issue #6: u',
    });
  });

  it('a huge issue is bounded, so a tracker cannot flood the prompt', () => {
    const t = issueTask({ number: 1, url: 'u', title: 't', body: 'x'.repeat(100_000), comments: ['y'.repeat(100_000)] });
    expect(t.description.length).toBeLessThan(45_000);
  });
});

describe('workflowWithIssue', () => {
  it('the run’s workflow remembers the issue, and the URL’s repository when the workflow names none (a file’s own forge.repo stays)', () => {
    const w = WorkflowFile.parse({ agent: { kind: 'command', command: ['true'] } });
    expect(workflowWithIssue(w, { number: 4, repo: { owner: 'acme', name: 'widget' } }).forge).toEqual({ repo: 'acme/widget', issue: 4 });
    expect(workflowWithIssue(w, { number: 4, repo: null }).forge).toEqual({ issue: 4 });
    const own = WorkflowFile.parse({ agent: { kind: 'command', command: ['true'] }, forge: { repo: 'acme/fork' } });
    expect(workflowWithIssue(own, { number: 4, repo: { owner: 'acme', name: 'widget' } }).forge).toEqual({ repo: 'acme/fork', issue: 4 });
    expect(WorkflowFile.parse({ agent: { kind: 'command', command: ['true'] }, forge: { repo: 'acme/fork', issue: 4 } }).forge).toEqual({
      repo: 'acme/fork',
      issue: 4,
    });
  });
});
