// @vitest-environment jsdom
// App shortcuts in the browser host too: the menu's shortcuts where a browser lets a page have them
// (Ctrl+N stays the browser's own: Alt+N there), and "/" to filter the runs, in both hosts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { APP_INFO } from '../../dev/fixtures-misc';
import { App } from '../App';
import { installFake } from '../test-helpers';
import { shortcutFor } from './shortcuts';

afterEach(() => {
  cleanup();
  location.hash = '';
});

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'shiftKey' | 'altKey', boolean>> = {}) => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  shiftKey: false,
  altKey: false,
  ...mods,
});

describe('shortcutFor (pure)', () => {
  const browser = { host: 'headless' as const, mac: false, inField: false };
  it('gives the browser host the menu’s shortcuts a page can have, and Alt+N for New task', () => {
    expect(shortcutFor(key('n', { altKey: true }), browser)).toBe('newTask');
    expect(shortcutFor(key('o', { ctrlKey: true }), browser)).toBe('openRepo');
    expect(shortcutFor(key('D', { ctrlKey: true, shiftKey: true }), browser)).toBe('dashboard');
    expect(shortcutFor(key(',', { ctrlKey: true }), browser)).toBe('settings');
    expect(shortcutFor(key('o', { metaKey: true }), { ...browser, mac: true })).toBe('openRepo');
    // Ctrl+N opens a browser window; a page cannot take it.
    expect(shortcutFor(key('n', { ctrlKey: true }), browser)).toBeNull();
  });
  it('leaves the desktop app’s shortcuts to its menu, and gives both "/" to filter, never while typing', () => {
    const app = { ...browser, host: 'electron' as const };
    expect(shortcutFor(key('o', { ctrlKey: true }), app)).toBeNull();
    expect(shortcutFor(key('/'), app)).toBe('filter');
    expect(shortcutFor(key('/'), browser)).toBe('filter');
    expect(shortcutFor(key('/'), { ...browser, inField: true })).toBeNull();
    expect(shortcutFor(key('n', { altKey: true }), { ...browser, inField: true })).toBe('newTask');
    // Run actions never get a key: a stray key must not stop or restart a run.
    expect(shortcutFor(key('r'), browser)).toBeNull();
  });
});

describe('shortcuts in the window', () => {
  it('"/" goes to the runs and puts the cursor in their filter; Ctrl+Shift+D opens the dashboard in a browser', async () => {
    installFake({ overrides: { 'app.info': () => ({ ...APP_INFO, host: 'headless' as const }) } });
    location.hash = '#/settings';
    render(<App />);
    await screen.findByRole('heading', { name: 'Settings' });
    act(() => void fireEvent.keyDown(window, key('/')));
    await waitFor(() => expect(document.activeElement?.id).toBe('runs-filter'));
    expect(location.hash).toBe('#/');
    act(() => void fireEvent.keyDown(window, key('D', { ctrlKey: true, shiftKey: true })));
    await waitFor(() => expect(location.hash).toBe('#/dashboard'));
  });
});
