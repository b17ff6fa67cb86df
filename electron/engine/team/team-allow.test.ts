// A team worker gives a submitted workflow only what its own operator allowed: the refusal names each thing and its flag.
import { describe, expect, it } from 'vitest';
import { WorkflowFile } from '../workflow/schema';
import { NO_ALLOWANCES, workerRefusal, workerRefusals } from './team-allow';

const wf = (extra: object) => WorkflowFile.parse({ gates: { t: { run: 'true' } }, steps: [{ title: 'a', gates: ['t'] }], ...extra });

describe('workerRefusals', () => {
  it('refuses by default every sandbox.env name, network entry (sandbox and setup) and command agent', () => {
    const w = wf({
      sandbox: { env: ['AWS_SECRET_ACCESS_KEY', 'NODE_OPTIONS'], network: ['api.example.org'] },
      setup: { run: 'npm ci', inputs: ['package-lock.json'], network: ['registry:npm'] },
      agent: { kind: 'command', command: ['claude', '-p', '{prompt}'] },
    });
    expect(workerRefusals(w, NO_ALLOWANCES)).toEqual({
      env: ['AWS_SECRET_ACCESS_KEY', 'NODE_OPTIONS'],
      network: ['api.example.org', 'registry:npm'],
      commandAgent: ['claude -p {prompt}'],
    });
    const why = workerRefusal(w, NO_ALLOWANCES) ?? '';
    expect(why).toContain('--allow-env AWS_SECRET_ACCESS_KEY NODE_OPTIONS');
    expect(why).toContain('--allow-network api.example.org registry:npm');
    expect(why).toContain('--allow-command-agent');
  });

  it("allows what its operator listed, and never its API key or Ratchet's own variables even when listed", () => {
    const w = wf({ sandbox: { env: ['AWS_SECRET_ACCESS_KEY', 'ANTHROPIC_API_KEY', 'RATCHET_TEAM_URL'], network: ['api.example.org'] } });
    const allow = { env: ['AWS_SECRET_ACCESS_KEY', 'ANTHROPIC_API_KEY', 'RATCHET_TEAM_URL'], network: ['api.example.org'], commandAgent: true };
    expect(workerRefusals(w, allow)).toEqual({ env: ['ANTHROPIC_API_KEY', 'RATCHET_TEAM_URL'], network: [], commandAgent: [] });
    expect(workerRefusal(w, allow)).toMatch(/ANTHROPIC_API_KEY, RATCHET_TEAM_URL \(a worker never passes/);
    expect(workerRefusal(wf({ sandbox: { env: ['AWS_SECRET_ACCESS_KEY'] } }), allow)).toBeNull();
  });

  it("refuses a retry entry's command agent too, and passes a workflow that asks for nothing", () => {
    expect(workerRefusals(wf({ retry: [{ attempt: 2, agent: { command: ['aider', '--yes'] } }] }), NO_ALLOWANCES).commandAgent).toEqual(['aider --yes']);
    expect(workerRefusal(wf({}), NO_ALLOWANCES)).toBeNull();
  });
});
