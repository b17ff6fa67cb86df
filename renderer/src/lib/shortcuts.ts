// The app's keyboard shortcuts in the page: in the browser host the menu's (where a browser lets a page have them), and
// "/" to filter the runs in both hosts. Run actions (Retry, Resume, Stop) never get a key: a stray key must not start
// or stop a run.
import type { MenuCommand } from '../../../shared/menu-commands';

export type ShortcutTarget = MenuCommand | 'filter';

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/** What a key press asks for, or null. `inField`: the focus is in a text field (typing, not commanding). */
export function shortcutFor(e: KeyLike, opts: { host: 'electron' | 'headless'; mac: boolean; inField: boolean }): ShortcutTarget | null {
  const mod = opts.mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const k = e.key.toLowerCase();
  if (k === '/' && !mod && !e.altKey && !e.ctrlKey && !e.metaKey && !opts.inField) return 'filter';
  // The desktop app's menu owns its accelerators (shared/menu-commands.ts).
  if (opts.host !== 'headless') return null;
  // Ctrl/Cmd+N opens a browser window and a page cannot take it: Alt+N stands in.
  if (k === 'n' && e.altKey && !e.ctrlKey && !e.metaKey && !e.shiftKey) return 'newTask';
  if (!mod || e.altKey) return null;
  if (k === 'o' && !e.shiftKey) return 'openRepo';
  if (k === 'd' && e.shiftKey) return 'dashboard';
  if (k === ',' && !e.shiftKey) return 'settings';
  return null;
}

/** The shortcuts as the sidebar shows them on hover. */
export function shortcutHint(target: ShortcutTarget, host: 'electron' | 'headless', mac: boolean): string | null {
  const mod = mac ? '⌘' : 'Ctrl+';
  if (target === 'filter') return '/';
  if (host === 'headless') {
    return { newTask: 'Alt+N', openRepo: `${mod}O`, dashboard: `${mod}Shift+D`, settings: `${mod},` }[target as string] ?? null;
  }
  return { newTask: `${mod}N`, openRepo: `${mod}O`, dashboard: `${mod}Shift+D`, settings: `${mod},` }[target as string] ?? null;
}

/** Whether the key press happened while typing in a field. */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}
