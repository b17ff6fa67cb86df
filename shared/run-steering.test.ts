// The steering table: every status has a verdict for every action, and the refusals the engine and the team client throw.
import { describe, expect, it } from 'vitest';
import { RunStatus } from './domain';
import { canSteer, RUN_STEERING, steeringRefusal } from './run-steering';

describe('RUN_STEERING', () => {
  it('has a row for every run status', () => {
    expect(Object.keys(RUN_STEERING).sort()).toEqual([...RunStatus.options].sort());
  });

  it('lets nothing steer a run that succeeded, and no Resume or Retry race a run under way', () => {
    for (const a of ['stop', 'resume', 'retry', 'raiseBudget'] as const) expect(canSteer('succeeded', a)).toBe(false);
    for (const s of ['planning', 'running', 'queued'] as const) {
      expect(steeringRefusal('Run r', s, 'resume')?.code).toBe('run_busy');
      expect(steeringRefusal('Run r', s, 'retry')?.code).toBe('run_busy');
      expect(canSteer(s, 'stop')).toBe(true);
    }
  });

  it('words a refusal for the person who asked', () => {
    expect(steeringRefusal('Team run r', 'succeeded', 'retry')).toEqual({
      code: 'bad_arguments',
      message: 'Team run r already succeeded; there is nothing to retry.',
    });
    expect(steeringRefusal('Run r', 'failed', 'stop')).toEqual({ code: 'bad_arguments', message: 'Run r is failed; there is nothing to stop.' });
    expect(steeringRefusal('Run r', 'paused', 'resume')).toBeNull();
  });
});
