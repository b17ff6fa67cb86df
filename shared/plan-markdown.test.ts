import { describe, expect, it } from 'vitest';
import { parsePlanMarkdown, planToMarkdown } from './plan-markdown';

describe('plan Markdown', () => {
  it('reads numbered headings with their prompts, gates and phases', () => {
    const md = `Here is the plan.

# Phase: Backend
## 1. Add health to Player
Give Player a health field.
Keep it between 0 and 100.
Gates: test

## 2. Add damage()
Subtract and clamp.

# Phase: UI
## 3. Show a health bar
`;
    expect(parsePlanMarkdown(md)).toEqual([
      { title: 'Add health to Player', prompt: 'Give Player a health field.\nKeep it between 0 and 100.', gates: ['test'], phase: 'Backend' },
      { title: 'Add damage()', prompt: 'Subtract and clamp.', phase: 'Backend' },
      { title: 'Show a health bar', prompt: '', phase: 'UI' },
    ]);
  });

  it('reads a plain numbered list with "title — prompt"', () => {
    expect(parsePlanMarkdown('1. Add add() — with a test\n2. **Add mul()**\n')).toEqual([
      { title: 'Add add()', prompt: 'with a test' },
      { title: 'Add mul()', prompt: '' },
    ]);
  });

  it('round-trips', () => {
    const steps = [
      { title: 'One', prompt: 'Do one.', gates: ['test', 'build'], phase: 'A' },
      { title: 'Two', prompt: 'Do two.\nCarefully.', phase: 'B' },
    ];
    expect(parsePlanMarkdown(planToMarkdown(steps))).toEqual(steps);
  });

  it('finds nothing in text without steps', () => {
    expect(parsePlanMarkdown('Sorry, I cannot plan this.')).toEqual([]);
  });
});
