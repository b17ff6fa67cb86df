import { appWords } from './app-words';

// What a failed call or action says to the user: the error's own sentence (the engine's CallError message), else its text.
export function errorMessage(err: unknown): string {
  return appWords(err instanceof Error ? err.message : String(err));
}
