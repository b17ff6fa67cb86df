// One queue a key: the work given under one key runs one piece after the other, in the order given, in this process.
// Keyed by a repository's path, it keeps git's changes of one repository apart: a fetch checks every worktree's HEAD, and
// `git worktree add` writes a placeholder HEAD before its checkout — a fetch that lands in between fails with "bad object
// worktrees/<name>/HEAD" (seen on a team worker: a taken-over run's worktree added while another run of the clone fetched).

const queues = new Map<string, Promise<unknown>>();

/** Runs `fn` after everything given before under `key` has ended (whatever its outcome). Never nest one key in itself. */
export function serialized<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).catch(() => undefined).then(fn);
  queues.set(key, next);
  return next.finally(() => {
    if (queues.get(key) === next) queues.delete(key);
  });
}
