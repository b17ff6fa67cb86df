// A plan as Markdown and back: what the agent drafts, what the user edits and approves. Pure, used by the engine and the renderer.
import type { StepSpec } from './domain';
import { plainLine } from './terminal-text';

/**
 * Reads steps from Markdown: `## 1. Title` headings (or `1. Title` list items) start a step; the lines under it are its
 * prompt; an optional `Gates: test, build` line sets its gates; `# Phase: <name>` headings group the steps after them.
 */
export function parsePlanMarkdown(md: string): StepSpec[] {
  const steps: StepSpec[] = [];
  let phase: string | undefined;
  let current: { title: string; lines: string[]; gates?: string[]; phase?: string } | null = null;
  const flush = () => {
    if (!current) return;
    const prompt = current.lines.join('\n').trim();
    steps.push({ title: current.title, prompt, ...(current.gates ? { gates: current.gates } : {}), ...(current.phase ? { phase: current.phase } : {}) });
    current = null;
  };
  for (const raw of md.split(/\r?\n/)) {
    const line = raw.trimEnd();
    const phaseMatch = /^#\s+Phase(?:\s+\d+)?\s*[:—-]\s*(.+)$/i.exec(line);
    if (phaseMatch) {
      flush();
      phase = phaseMatch[1]?.trim();
      continue;
    }
    const heading = /^#{2,4}\s+(?:Step\s+)?\d+[.):]\s*(.+)$/i.exec(line) ?? /^(?:\d+)[.)]\s+\*{0,2}(.+?)\*{0,2}\s*$/.exec(line);
    if (heading) {
      flush();
      const [title, rest] = (heading[1] as string).split(/\s+[—–]\s+|:\s+(?=\S)/, 2) as [string, string | undefined];
      current = { title: plainLine(title.replace(/\*\*/g, '')), lines: rest ? [rest] : [], ...(phase ? { phase } : {}) };
      continue;
    }
    if (!current) continue;
    const gates = /^\s*(?:[-*]\s*)?gates?:\s*(.+)$/i.exec(line);
    if (gates) {
      current.gates = (gates[1] as string)
        .split(/[,\s]+/)
        .map((g) => g.replace(/`/g, ''))
        .filter(Boolean);
      continue;
    }
    current.lines.push(line.replace(/^ {3}/, ''));
  }
  flush();
  return steps.filter((s) => s.title.length > 0);
}

export function planToMarkdown(steps: readonly StepSpec[]): string {
  const out: string[] = [];
  let phase: string | undefined;
  steps.forEach((s, i) => {
    if (s.phase && s.phase !== phase) {
      phase = s.phase;
      out.push(`# Phase: ${phase}`, '');
    }
    out.push(`## ${i + 1}. ${s.title}`);
    if (s.prompt.trim()) out.push(s.prompt.trim());
    if (s.gates?.length) out.push(`Gates: ${s.gates.join(', ')}`);
    out.push('');
  });
  return out.join('\n');
}
