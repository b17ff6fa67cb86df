// @vitest-environment jsdom
// App shortcuts in the browser host too: the menu's shortcuts where a browser lets a page have them
// (Ctrl+N stays the browser's own: Alt+N there), and "/" to filter the runs, in both hosts.
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { APP_INFO } from '../../dev/fixtures-misc';
import { App } from '../App';
import { installFake } from '../test-helpers';
import { MENU_COMMAND_SPECS } from '../../../shared/menu-commands';
import { RUN_IDS } from '../../dev/fixtures-runs';
import { shortcutFor, shortcutRows } from './shortcuts';

afterEach(() => {
  cleanup();
  location.hash = '';
  localStorage.clear();
});

/** The element with the focus is in the screen (not the body, not the sidebar). */
const focusInScreen = () => Boolean(document.activeElement && document.activeElement !== document.body && document.activeElement.closest('#main .screen'));

function browserApp(hash: string, interrupted = false) {
  installFake({
    overrides: {
      'app.info': () => ({ ...APP_INFO, host: 'headless' as const }),
      ...(interrupted ? {} : { 'runs.interrupted': () => [] }),
    },
  });
  location.hash = hash;
  render(<App />);
}

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

  it('Ctrl+O opens the folder browser, as the menu says, not only New task’s chooser (issue 34 item 7)', async () => {
    browserApp('#/');
    await screen.findByRole('heading', { name: 'Runs' });
    act(() => void fireEvent.keyDown(window, key('o', { ctrlKey: true })));
    await screen.findByRole('dialog', { name: 'Open a repository' });
    expect(location.hash).toBe('#/new');
  });

  it('Alt+N asks for the repository as the sidebar’s New task does, and the keyboard starts in the screen (issue 34 item 7)', async () => {
    browserApp(`#/runs/${RUN_IDS.failed}`);
    await screen.findByRole('heading', { level: 1 });
    act(() => void fireEvent.keyDown(window, key('n', { altKey: true })));
    await waitFor(() => expect(location.hash).toBe('#/new'));
    await screen.findByText('Choose a repository first');
    expect(screen.getByRole('link', { name: 'New task' }).getAttribute('href')).toBe('#/new');
    await waitFor(() => expect(focusInScreen()).toBe(true));
    expect(document.activeElement?.textContent).toBe('Open…');
  });

  it('after Ctrl+, and Ctrl+Shift+D the focus is on the screen’s first field, not the body (issue 34 item 7)', async () => {
    browserApp('#/');
    await screen.findByRole('heading', { name: 'Runs' });
    act(() => void fireEvent.keyDown(window, key(',', { ctrlKey: true })));
    await screen.findByRole('heading', { name: 'Settings' });
    await waitFor(() => expect(focusInScreen()).toBe(true));
    expect(document.activeElement?.tagName).toMatch(/INPUT|SELECT|TEXTAREA/);
    act(() => void fireEvent.keyDown(window, key('D', { ctrlKey: true, shiftKey: true })));
    await screen.findByRole('heading', { name: 'Dashboard' });
    await waitFor(() => expect(focusInScreen()).toBe(true));
    expect(document.activeElement?.closest('#main .screen')?.querySelector('h1')?.textContent).toBe('Dashboard');
  });

  it('closing the resume offer puts the focus on the screen, not the body (issue 34 item 7)', async () => {
    browserApp('#/', true);
    const dialog = await screen.findByRole('dialog');
    act(() => void fireEvent.keyDown(dialog, { key: 'Escape' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(focusInScreen()).toBe(true));
  });

  it('"?" shows every key from the menu’s own table, and Escape closes it (issue 34 item 7)', async () => {
    browserApp('#/settings');
    await screen.findByRole('heading', { name: 'Settings' });
    act(() => void fireEvent.keyDown(window, key('?', { shiftKey: true })));
    const sheet = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    const rows = [...sheet.querySelectorAll('tr')].map((tr) => tr.textContent);
    for (const spec of Object.values(MENU_COMMAND_SPECS).filter((s) => s.accelerator)) {
      expect(rows.some((r) => r?.includes(spec.label.replace(/…$/, '')))).toBe(true);
    }
    expect(rows).toContain('Alt+NNew Task');
    expect(rows).toContain('Ctrl+OOpen Repository');
    expect(rows.some((r) => r?.startsWith('?'))).toBe(true);
    act(() => void fireEvent.keyDown(sheet, { key: 'Escape' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('shortcutRows (pure)', () => {
  it('reads the keys from the menu’s accelerators: the desktop app shows Ctrl+N, the browser Alt+N', () => {
    expect(shortcutRows('electron', false)[0]).toEqual({ keys: 'Ctrl+N', does: 'New Task' });
    expect(shortcutRows('headless', false)[0]).toEqual({ keys: 'Alt+N', does: 'New Task' });
    expect(shortcutRows('electron', true).find((r) => r.does === 'Dashboard')?.keys).toBe('⌘⇧D');
    // No run action has a key.
    expect(shortcutRows('electron', false).some((r) => /Retry|Resume|Stop/.test(r.does))).toBe(false);
  });
});
