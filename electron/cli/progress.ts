// Turns engine events into the short progress lines the CLI prints on stderr.
import type { EngineEvent } from '../engine';
import { money } from '../../shared/money';
import { wordTimes } from '../../shared/reason-text';
import { clockWords } from '../../shared/time-ago';

function oneLine(text: unknown, max = 100): string {
  const s = String(text ?? '')
    .replace(/\s+/g, ' ')
    .trim();
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

export function progressLine(e: EngineEvent, totalSteps: number, now: number = Date.now()): string | null {
  const p = e.payload;
  switch (e.type) {
    case 'run.created':
      return `run ${e.runId}: ${String(p.repo)} → branch ${String(p.branch)}\n  worktree ${String(p.worktree)}`;
    case 'step.started':
      return `▶ step ${String(p.step)}/${totalSteps}: ${String(p.title)}`;
    case 'attempt.started':
      return `  attempt ${String(p.n)} (${String(p.agent)}${p.model ? `, ${String(p.model)}` : ''})`;
    case 'agent.transcript':
      if (p.kind === 'tool_use') {
        const input = p.input as Record<string, unknown> | undefined;
        const what = p.name === 'bash' ? input?.command : [input?.command, input?.path].filter(Boolean).join(' ');
        return `    · ${p.name === 'bash' ? 'bash' : 'edit'}${what ? ` ${oneLine(what, 80)}` : ''}`;
      }
      if (p.kind === 'text') return `    » ${oneLine(p.text, 120)}`;
      if (p.kind === 'error') return `    ! ${oneLine(p.text, 200)}`;
      return null;
    case 'gate.finished': {
      const secs = (Number(p.durationMs) / 1000).toFixed(1);
      if (p.passed) return `    gate ${String(p.gate)}: passed (${secs} s)`;
      const n = Number(p.failures);
      const failures = n > 0 ? `, ${n} failing test${n === 1 ? '' : 's'}` : '';
      // A gate that exited 0 yet failed is one that ran no tests.
      const why = p.timedOut ? 'timed out' : Number(p.exitCode) === 0 ? 'it ran no tests' : `exit ${String(p.exitCode)}`;
      return `    gate ${String(p.gate)}: FAILED (${why}, ${secs} s${failures})`;
    }
    case 'attempt.finished':
      if (p.outcome === 'red') return `    ✓ test first: ${oneLine(p.summary, 200)}`;
      return p.outcome === 'passed' ? null : `    ✗ ${oneLine(p.summary, 200)}`;
    case 'decision':
      return p.action === 'retry' ? `  ↻ ${String(p.reason)}${Number(p.delayS) > 0 ? ` in ${Number(p.delayS).toFixed(0)} s` : ''}` : `  ■ ${String(p.reason)}`;
    case 'step.committed':
      return `  ✓ step ${String(p.step)} committed ${String(p.commit).slice(0, 10)}`;
    case 'rescue.committed':
      return `  unfinished work kept in rescue commit ${String(p.commit).slice(0, 10)}`;
    case 'budget.alert': {
      const spent = Number(p.spentUsd);
      const limit = Number(p.limitUsd);
      const pct = limit > 0 ? Math.round((spent / limit) * 100) : 0;
      return `  ! budget alert: ${money(spent)} of the ${p.kind === 'daily' ? 'daily' : 'task'} budget of ${money(limit)} spent (${pct} %)`;
    }
    case 'budget.raised':
      return `  task budget raised to ${money(Number(p.taskUsd))}`;
    case 'worktree.prepared': {
      const reused = (p.reused as Array<{ path: string }>).map((r) => r.path);
      return `  from your checkout: ${[...(p.copied as string[]), ...reused].join(', ')} (${(Number(p.durationMs) / 1000).toFixed(1)} s)`;
    }
    case 'setup.started':
      return `  setup${p.reason === 'inputs' ? ` again (${(p.changed as string[]).join(', ')} changed)` : ''}: ${(p.commands as string[]).join(' && ')}`;
    case 'setup.finished':
      return p.outcome === 'skipped'
        ? `  setup skipped: ${String(p.note)}`
        : `  setup ${p.outcome === 'ok' ? 'done' : String(p.outcome)} (${(Number(p.durationMs) / 1000).toFixed(1)} s)`;
    case 'baseline.finished': {
      const failing = (p.failingTests as string[]).length;
      const took = `(${(Number(p.durationMs) / 1000).toFixed(1)} s)`;
      // Not ready: what cannot run is the environment's, not tests already failing (the run's reason says what to fix).
      if (!p.ready) return `  baseline on the base commit: not ready ${took}: ${oneLine(p.problem ?? 'a gate cannot run here', 160)}`;
      return `  baseline on the base commit: ready${failing ? `, ${failing} already failing` : ''} ${took}`;
    }
    case 'log':
      return `  ${String(p.message)}`;
    case 'notify.failed':
      // Only failures are worth a line; the URL is already redacted to its host.
      return `  ! ${String(p.target)} notification (${String(p.event)}) to ${String(p.url)} not delivered after ${String(p.tries)} tr${p.tries === 1 ? 'y' : 'ies'}: ${oneLine(p.reason, 200)}`;
    case 'run.status': {
      if (p.status === 'running' || p.status === 'planning') return null;
      const reason = p.reason ? wordTimes(String(p.reason), now) : '';
      // A wait this process sits through (a backoff, the API key on hold) is part of the step's progress; "run waiting:"
      // there read as if the run had ended. A run that ends waiting (parked, the daily budget) says so as any end does.
      if (p.status === 'waiting' && (p.reasonCode === 'retry_backoff' || p.reasonCode === 'api_rate_limited') && typeof p.wakeAt === 'string')
        return `  … waiting until ${clockWords(p.wakeAt, now)}${reason ? `: ${reason}` : ''}`;
      return `run ${String(p.status)}${reason ? `: ${reason}` : ''}`;
    }
    default:
      return null;
  }
}
