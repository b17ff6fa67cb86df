// `ratchet stats` (the dashboard's numbers, from the same function the app calls) and `ratchet doctor` (the store's health).
import { doctorText, runDoctor, type Engine } from '../engine';
import { parse, UsageError, type CliIo } from './cli-kit';

export function cmdStats(engine: Engine, args: string[], io: CliIo, now: Date = new Date()): number {
  const { values, positionals } = parse(args, { days: { type: 'string' }, json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet stats` takes no arguments.');
  const raw = (values.days as string | undefined) ?? '7';
  const days = Number(raw);
  if (!/^\d+$/.test(raw) || days < 1 || days > 3660) throw new UsageError(`--days takes a whole number of days from 1 to 3660, not "${raw}".`);
  const settings = engine.settings();
  io.stdout.write(
    values.json
      ? `${JSON.stringify(engine.statsSummary(days, now, { dailyUsd: settings.budget.dailyUsd, preset: settings.preset }), null, 2)}\n`
      : // The same report as the app's Weekly report (improvement suggestions included).
        engine.weeklyReport(days, now, { dailyUsd: settings.budget.dailyUsd, preset: settings.preset }).markdown,
  );
  return 0;
}

export function cmdDoctor(home: string, args: string[], io: CliIo): number {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } });
  if (positionals.length) throw new UsageError('`ratchet doctor` takes no arguments.');
  const report = runDoctor(home);
  io.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${doctorText(report)}\n`);
  return report.ok ? 0 : 1;
}
