// Pages of a long gate log, fetched as the viewer scrolls to them (runs.gateLog), kept per log while it is shown.
import { useCallback, useEffect, useRef, useState } from 'react';
import { GATE_LOG_MAX_LINES } from '../../../shared/contract';
import { errorMessage, getApi } from '../api/client';

/** Lines per request: a few screens, so scrolling rarely waits and a request stays small. */
export const GATE_PAGE_LINES = 1000;

export interface GateLogSource {
  runId: string;
  step: number;
  n: number;
  gate: string;
}

export interface GateLogPages {
  /** Line `i` when its page has arrived, else null (drawn as a placeholder). */
  line(i: number): string | null;
  /** Ask for the pages covering lines [start, end) that are neither loaded nor on their way. */
  want(start: number, end: number): void;
  error: string | null;
}

/** Lines [from, from + count) of a gate's log, in requests the host accepts. */
export async function fetchGateLines(src: GateLogSource, from: number, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let at = from; at < from + count; at += GATE_LOG_MAX_LINES) {
    const page = await getApi().call('runs.gateLog', { ...src, from: at, count: Math.min(GATE_LOG_MAX_LINES, from + count - at) });
    for (const l of page.lines) out.push(l);
    if (page.lines.length === 0) break;
  }
  return out;
}

/** The pages of one log; `src` null: nothing to page (the whole log came with the attempt). */
export function useGateLogPages(src: GateLogSource | null): GateLogPages {
  const pages = useRef(new Map<number, string[] | 'loading'>());
  const [, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const key = src ? `${src.runId}:${src.step}:${src.n}:${src.gate}` : '';
  useEffect(() => {
    pages.current = new Map();
    setError(null);
  }, [key]);
  const want = useCallback(
    (start: number, end: number) => {
      if (!src) return;
      for (let p = Math.floor(start / GATE_PAGE_LINES); p * GATE_PAGE_LINES < end; p++) {
        if (pages.current.has(p)) continue;
        const map = pages.current;
        map.set(p, 'loading');
        fetchGateLines(src, p * GATE_PAGE_LINES, GATE_PAGE_LINES).then(
          (lines) => {
            if (pages.current !== map) return;
            map.set(p, lines);
            setVersion((v) => v + 1);
          },
          (err: unknown) => {
            if (pages.current !== map) return;
            // Asked again when scrolled to once more.
            map.delete(p);
            setError(errorMessage(err));
          },
        );
      }
      // key names the log; src is a new object on every render.
    },
    [key],
  );
  const line = (i: number) => {
    const page = pages.current.get(Math.floor(i / GATE_PAGE_LINES));
    return Array.isArray(page) ? (page[i % GATE_PAGE_LINES] ?? null) : null;
  };
  return { line, want, error };
}
