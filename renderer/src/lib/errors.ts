// What a failed call or action says to the user: the error's own sentence (the engine's CallError message), else its text.
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  return String(err);
}
