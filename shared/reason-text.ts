// A run's reason as the app shows it: the engine writes one text for the terminal (commands with the run's id, ISO
// times, blocks separated by lines); the app shows its own buttons instead of commands, times as people read them, and
// the blocks as paragraphs and lists. The CLI keeps the text as it is. Which buttons the reason asks for comes from the
// run's reason code (reasonActions); the commands in the text decide them only for a run written before reason codes.
import type { RunReasonCode } from './domain';
import { clockWords, timeWords } from './time-ago';

/** What a reason's commands ask for, as the app's own actions (its buttons on the run's page). */
export type ReasonAction = 'raise_budget' | 'approve' | 'resume' | 'retry' | 'revise_plan' | 'start_again';

export interface ReasonBlock {
  /** "Attempts summary", "Remaining issues", "Next steps" (the line that introduced it, without its colon), or null. */
  heading: string | null;
  /** Plain lines (a paragraph) or list items (their "1." / "-" marker removed). */
  lines: string[];
  list: 'ordered' | 'bullets' | null;
}

export interface AppReason {
  /** The first line: the sentence the lists and notices show. */
  head: string;
  blocks: ReasonBlock[];
  /** The app's actions the reason's commands named, in the order named (each once): for a run without a reason code. */
  actions: ReasonAction[];
}

/** The CLI's commands and the app action each stands for (first match wins). */
const COMMAND_ACTIONS: Array<[RegExp, ReasonAction | null]> = [
  [/^ratchet resume \S+ --budget\b/, 'raise_budget'],
  [/^ratchet resume \S+ --approve\b/, 'approve'],
  [/^ratchet resume\b/, 'resume'],
  [/^ratchet retry\b/, 'retry'],
  [/^ratchet plan\b/, 'revise_plan'],
  [/^ratchet restart\b/, 'start_again'],
];

/** A `ratchet <command>` as the engine writes it: in backticks, or bare up to the sentence's end, a bracket or a semicolon. */
const COMMAND =
  /`(ratchet [^`]+)`|\b(ratchet (?:resume|retry|restart|plan|recover|trust|merge|status|run|list|doctor|check|init)\b[^()`;\n]*?)(?=\s*(?:[.;)(\n]|,\s|$))/g;

/** Where a command was cut out (a character no reason contains), and the words that only led to it. */
const CUT = '\u2063';
const CUT_WITH_LEAD = new RegExp(`\\s*(?:\\b(?:by|with|run|use|see|try)\\s+|Next:\\s*)?${CUT}`, 'g');

const ISO_TIME = /\b\d{4}-\d\d-\d\dT\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:Z|[+-]\d\d:?\d\d)\b/g;

/**
 * A text with its ISO times in words, for the terminal (the engine's reasons keep ISO times, which the app words its own
 * way): "until <ISO>" reads "until 12:05 (in 4 min)", any other time as timeWords says it ("3 min ago", "at 12:05 (in 4 min)").
 */
export function wordTimes(text: string, now: number = Date.now()): string {
  return text.replace(new RegExp(`(\\buntil )?${ISO_TIME.source}`, 'g'), (whole: string, until: string | undefined) => {
    const iso = until ? whole.slice(until.length) : whole;
    return until && Date.parse(iso) > now ? `${until}${clockWords(iso, now)}` : `${until ?? ''}${timeWords(iso, now)}`;
  });
}

function actionOf(command: string): ReasonAction | null {
  for (const [re, action] of COMMAND_ACTIONS) if (re.test(command)) return action;
  return null;
}

/**
 * One line without the CLI's commands: "with ratchet resume x --budget <usd> (in the app: Raise budget and continue)"
 * reads "with Raise budget and continue"; "(`ratchet retry x`, or Retry in the app)" and "(`ratchet plan x --edit f`)"
 * go (the page has those buttons); "by `ratchet recover`" goes. Names the actions the commands stood for.
 */
function withoutCommands(line: string, actions: ReasonAction[]): string {
  const note = (cmd: string) => {
    const a = actionOf(cmd.trim());
    if (a && !actions.includes(a)) actions.push(a);
  };
  let s = line
    // "<command> (in the app: X)": the app's words replace the command.
    .replace(/`?(ratchet [^`()\n]*?)`?\s*\(in the app: ([^)]+)\)/g, (_m, cmd: string, app: string) => {
      note(cmd);
      return app.trim();
    })
    // "(`<command>`, or X in the app)", "(`<command>`)": the page has the button.
    .replace(/\s*\(\s*`(ratchet [^`]+)`[^)]*\)/g, (_m, cmd: string) => {
      note(cmd);
      return '';
    })
    // "(if …, `ratchet resume x`)" and other brackets around a bare command.
    .replace(/\s*\(([^()]*?)`(ratchet [^`]+)`([^()]*)\)/g, (_m, before: string, cmd: string) => {
      note(cmd);
      return before.trim()
        ? ` (${before
            .trim()
            .replace(/[,:]?\s*(?:or|run|with)?$/, '')
            .trim()})`
        : '';
    });
  s = s.replace(COMMAND, (_m, quoted: string | undefined, bare: string | undefined) => {
    note(quoted ?? bare ?? '');
    return CUT;
  });
  // Words that only led to a command go with it ("by", "with", "Next:"), then spaces and stray punctuation.
  return s
    .replace(CUT_WITH_LEAD, '')
    .replace(/\s+([,.;:)])/g, '$1')
    .replace(/\(\s*\)/g, '')
    .replace(/:\s*([.;]|$)/g, '$1')
    .replace(/\s{2,}/g, ' ')
    .trim();
}

/** `when(iso)` words a time ("3 min ago", "at 12:05"); without it times stay as written. */
export function appReason(reason: string, when?: (iso: string) => string): AppReason {
  const actions: ReasonAction[] = [];
  const clean = (line: string) => withoutCommands(when ? line.replace(ISO_TIME, (iso) => when(iso)) : line, actions);
  const [first = '', ...rest] = reason.replace(/\r\n/g, '\n').split('\n');
  const blocks: ReasonBlock[] = [];
  let block: ReasonBlock | null = null;
  const close = () => {
    if (block && (block.lines.length || block.heading)) blocks.push(block);
    block = null;
  };
  for (const raw of rest) {
    const line = raw.trim();
    if (line === '') {
      close();
      continue;
    }
    const item = /^(?:(\d+)[.)]|[-•*])\s+(.*)$/.exec(line);
    if (!item && /:$/.test(line) && line.length <= 60) {
      close();
      block = { heading: clean(line.slice(0, -1)), lines: [], list: null };
      continue;
    }
    block ??= { heading: null, lines: [], list: null };
    if (item) {
      const kind = item[1] ? 'ordered' : 'bullets';
      if (block.lines.length > 0 && block.list !== kind) {
        close();
        block = { heading: null, lines: [], list: kind };
      }
      block.list = kind;
      const text = clean(item[2] ?? '');
      if (text) block.lines.push(text);
    } else {
      if (block.list) {
        close();
        block = { heading: null, lines: [], list: null };
      }
      const text = clean(line);
      if (text) block.lines.push(text);
    }
  }
  close();
  return { head: clean(first), blocks, actions };
}

/** The first line of a reason for one-line places (runs list, dashboard, notices): no commands, times worded. */
export function reasonHead(reason: string | null | undefined, when?: (iso: string) => string): string {
  return reason ? appReason(reason.split('\n')[0] ?? '', when).head : '';
}

/**
 * What each reason code asks the user for, in the order its reason names it (the same actions the commands of the
 * engine's own reason name: run/app-reason.test.ts holds them together). `committed`: a step of the run is committed,
 * so Retry can continue from it; without one a failed run is started again.
 */
const CODE_ACTIONS: Record<RunReasonCode, (committed: boolean) => ReasonAction[]> = {
  task_budget: () => ['raise_budget'],
  plan_awaiting_approval: () => ['approve'],
  step_needs_you: () => ['revise_plan', 'resume'],
  step_failed: (committed) => ['revise_plan', committed ? 'retry' : 'start_again'],
  daily_budget: () => [],
  auto_progress_step: () => [],
  auto_progress_phase: () => [],
  paused_by_user: () => [],
  stopped_by_user: () => [],
  process_stopped: () => [],
  retry_parked: () => [],
  retry_backoff: () => [],
  api_rate_limited: () => [],
  environment_failed: () => [],
  internal_error: () => [],
  plan_approved: () => [],
  process_lost: () => [],
  waiting_for_slot: () => [],
  queue_turn: () => [],
  removed_from_queue: () => [],
  rebuilt_from_git: () => [],
};

/** The actions a run's reason asks for: by its reason code; a run without one (written before codes) by its text's commands. */
export function reasonActions(run: { reason: string | null; reasonCode?: RunReasonCode | null }, committed: boolean): ReasonAction[] {
  if (run.reasonCode) return CODE_ACTIONS[run.reasonCode](committed);
  return run.reason ? appReason(run.reason).actions : [];
}
