// @vitest-environment jsdom
// New task's Project section: the repository's own workflow or what detection found (never `npm test` by default), and "Check project" before any money is spent.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { GO_REPO, makeBaseline, WORKFLOW } from '../../dev/fixtures-misc';
import { REPO } from '../../dev/fixtures-runs';
import { installFake, NOW } from '../test-helpers';
import { NewTaskScreen } from './NewTaskScreen';

afterEach(() => {
  cleanup();
  location.hash = '';
});

const inputs = () => [...document.querySelectorAll('input, textarea')].map((e) => (e as HTMLInputElement).value);

describe('New task’s project settings', () => {
  it('shows what detection found in a repository without a workflow file, never npm test, and runs with it', async () => {
    const fake = installFake();
    render(<NewTaskScreen repoPath={GO_REPO} />);
    await screen.findByDisplayValue('go test ./...', {}, { timeout: 5000 });
    expect(screen.getByDisplayValue('go mod download')).toBeTruthy();
    expect(screen.getByDisplayValue('registry:go')).toBeTruthy();
    expect(screen.getByLabelText('where the project settings come from').textContent).toMatch(/Detected Go modules \(go.mod, go.sum\)/);
    expect(inputs().join('\n')).not.toMatch(/npm/);
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Fix the router' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Fix trailing slashes' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.start')).toBe(true));
    expect(fake.calls.find((c) => c.method === 'runs.start')?.input).toMatchObject({
      repo: GO_REPO,
      gates: { test: 'go test ./...' },
      setup: { run: ['go mod download'], network: ['registry:go'] },
    });
  });

  it('with nothing detected, offers an empty gate to fill in and says what Check project needs', async () => {
    installFake({
      overrides: {
        'project.detect': () => ({ found: [], setup: [], network: [], gates: [], copy: [], notes: ['No project files Ratchet knows were found.'] }),
      },
    });
    render(<NewTaskScreen repoPath={GO_REPO} />);
    await screen.findByText(/Nothing Ratchet knows was found/);
    // The empty gate comes with the render after detection's (the form takes detection's result in an effect).
    expect(((await screen.findByLabelText('gate 1 command')) as HTMLInputElement).value).toBe('');
    expect((screen.getByRole('button', { name: 'Check project' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText('Write a gate (the command that runs the tests) to check the project.')).toBeTruthy();
  });

  it('Check project runs the baseline with the form’s settings, shows ready and the tests that already fail, and says when the form changed since', async () => {
    const fake = installFake();
    render(<NewTaskScreen repoPath={GO_REPO} />);
    await screen.findByDisplayValue('go test ./...', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Check project' }));
    const result = await screen.findByRole('region', { name: 'baseline check' });
    expect(fake.calls.find((c) => c.method === 'project.baseline')?.input).toEqual({
      repo: GO_REPO,
      gates: { test: 'go test ./...' },
      setup: { run: ['go mod download'], network: ['registry:go'] },
    });
    expect(result.textContent).toContain('Ready to run');
    expect(result.textContent).toContain('1 test already fails before the agent starts');
    expect(within(result).getByText('test: player > heals up to max health')).toBeTruthy();
    expect(result.textContent).not.toContain('Checked with other settings');
    fireEvent.change(screen.getByLabelText('gate 1 command'), { target: { value: 'go test -race ./...' } });
    expect(screen.getByRole('region', { name: 'baseline check' }).textContent).toContain('Checked with other settings or on an earlier commit');
  });

  it('says why a project is not ready, with what to fix', async () => {
    installFake({
      overrides: {
        'project.baseline': () => ({
          ...makeBaseline(NOW),
          ready: false,
          problem: 'Setup failed: `go mod download` could not reach the module proxy. Add registry:go to setup.network.',
          failingTests: [],
          setup: {
            outcome: 'failed',
            durationMs: 2000,
            at: new Date(NOW).toISOString(),
            note: null,
            message: 'exit 1',
            outputTail: 'dial tcp: connection refused',
          },
        }),
      },
    });
    render(<NewTaskScreen repoPath={GO_REPO} />);
    await screen.findByDisplayValue('go test ./...', {}, { timeout: 5000 });
    fireEvent.click(screen.getByRole('button', { name: 'Check project' }));
    const alert = await screen.findByText('Not ready to run');
    expect(alert.parentElement?.textContent).toContain('Add registry:go to setup.network.');
    expect(screen.getByText('dial tcp: connection refused')).toBeTruthy();
  });

  it('shows the repository’s own workflow file first, checks it only once trusted, and keeps the chosen preset (issue 20 item 6)', async () => {
    const fake = installFake();
    render(<NewTaskScreen repoPath={REPO} />);
    await screen.findByDisplayValue('npm run build', {}, { timeout: 5000 });
    expect(screen.getByRole('tab', { name: /workflow/ }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByLabelText('where the project settings come from').textContent).toMatch(/From the repository’s workflow file .*ratchet.yml/);
    expect(screen.getByDisplayValue('npm ci')).toBeTruthy();
    const check = screen.getByRole('button', { name: 'Check project' }) as HTMLButtonElement;
    expect(check.disabled).toBe(true);
    expect(screen.getByText('Trust the workflow file first: checking runs its commands.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Trust' }));
    fireEvent.click(check);
    await screen.findByRole('region', { name: 'baseline check' });
    expect(fake.calls.find((c) => c.method === 'project.baseline')?.input).toEqual({ repo: REPO, workflowFile: `${REPO}/ratchet.yml`, trust: true });
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Health' } });
    fireEvent.change(screen.getByLabelText('Retry preset'), { target: { value: 'aggressive' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start run' }));
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.start')).toBe(true));
    expect(fake.calls.find((c) => c.method === 'runs.start')?.input).toEqual({
      repo: REPO,
      title: 'Health',
      description: '',
      workflowFile: `${REPO}/ratchet.yml`,
      trust: true,
      trustSha256: WORKFLOW.trust!.sha256,
      preset: 'aggressive',
    });
  });

  it('refuses an empty gate command at its field (Start disabled with the reason), and runs with no gate only after "Run without checks" (issue 29 item 1)', async () => {
    const fake = installFake({
      overrides: {
        'project.detect': () => ({ found: [], setup: [], network: [], gates: [], copy: [], notes: ['No project files Ratchet knows were found.'] }),
      },
    });
    render(<NewTaskScreen repoPath={GO_REPO} />);
    const command = (await screen.findByLabelText('gate 1 command')) as HTMLInputElement;
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Fix the router' } });
    fireEvent.change(screen.getByLabelText('step 1 title'), { target: { value: 'Fix trailing slashes' } });
    // The placeholder is not a value: an empty command is an error at its field, and Start says why it waits.
    expect(command.placeholder).not.toMatch(/^npm test$/);
    expect(command.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText(/gate "test" needs a command/)).toBeTruthy();
    const start = screen.getByRole('button', { name: 'Start run' }) as HTMLButtonElement;
    expect(start.disabled).toBe(true);
    expect(screen.getByText(/Needs a command for gate "test"/)).toBeTruthy();
    // With no gate at all: nothing would check the work, so Start waits for an explicit "Run without checks".
    fireEvent.click(screen.getByRole('button', { name: 'remove gate 1' }));
    expect(start.disabled).toBe(true);
    expect(screen.getByText(/Needs a gate, or "Run without checks"/)).toBeTruthy();
    fireEvent.click(screen.getByRole('checkbox', { name: /Run without checks/ }));
    expect(start.disabled).toBe(false);
    fireEvent.click(start);
    await waitFor(() => expect(fake.calls.some((c) => c.method === 'runs.start')).toBe(true));
    expect(fake.calls.find((c) => c.method === 'runs.start')?.input).toMatchObject({ repo: GO_REPO, noGates: true, gates: {} });
  });
});
