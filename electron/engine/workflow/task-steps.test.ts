import { describe, expect, it } from 'vitest';
import { WorkflowFile } from './schema';
import { withTaskSteps } from './task-steps';

const noSteps = WorkflowFile.parse({ gates: { test: 'go test ./...' } });
const withSteps = WorkflowFile.parse({ gates: { test: 'go test ./...' }, steps: [{ title: 'From the file' }] });

describe('withTaskSteps (where a run’s steps come from)', () => {
  it('steps written for the task replace the file’s, and may only name the file’s gates', () => {
    expect(withTaskSteps(withSteps, { steps: [{ title: 'Mine', prompt: '', gates: ['test'] }] }, 'ratchet.yml').steps.map((s) => s.title)).toEqual(['Mine']);
    expect(() => withTaskSteps(noSteps, { steps: [{ title: 'Mine', prompt: '', gates: ['lint'] }] }, 'ratchet.yml')).toThrow(
      /names gate `lint`, which ratchet.yml does not define/,
    );
  });

  it('a file’s own steps stand when the task gives none; a file without steps runs the task as one step', () => {
    expect(withTaskSteps(withSteps, { title: 'Task' }, 'f').steps.map((s) => s.title)).toEqual(['From the file']);
    expect(withTaskSteps(noSteps, { title: 'Fix parser', description: 'The parser drops the last line.' }, 'f').steps).toEqual([
      { title: 'Fix parser', prompt: 'The parser drops the last line.' },
    ]);
    expect(withTaskSteps(noSteps, { title: 'Fix parser' }, 'f').steps).toEqual([{ title: 'Fix parser', prompt: 'Fix parser' }]);
  });

  it('a file without steps and no task is refused with what to pass, unless the plan comes later (--draft)', () => {
    expect(() => withTaskSteps(noSteps, {}, 'ratchet.yml')).toThrow(/ratchet.yml has no steps: each task gives its own\. Pass --task/);
    expect(withTaskSteps(noSteps, { planLater: true }, 'ratchet.yml').steps).toEqual([]);
  });
});
