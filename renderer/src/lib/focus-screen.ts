// After a shortcut, or a dialog that closes with nothing to give focus back to, focus goes to the screen's first field —
// never left on the page's body, where the next Tab starts from the sidebar (issue 34 item 7).

const FIELDS = 'input:not([type="hidden"]):not(:disabled), select:not(:disabled), textarea:not(:disabled)';
const CONTROLS = 'button:not(:disabled), a[href], [tabindex="0"]';

/** The screen on show now (to tell it from the next one after a navigation). */
export function currentScreen(): Element | null {
  return document.querySelector('#main .screen');
}

/** The element a screen's keyboard user starts from: its first field, else its first control, else its title. */
export function screenStart(root: ParentNode): HTMLElement | null {
  const screen = root.querySelector<HTMLElement>('#main .screen');
  if (!screen || screen.querySelector('.state-loading')) return null;
  const first = screen.querySelector<HTMLElement>(FIELDS) ?? screen.querySelector<HTMLElement>(CONTROLS);
  if (first) return first;
  const title = screen.querySelector<HTMLElement>('h1');
  if (title && !title.hasAttribute('tabindex')) title.tabIndex = -1;
  return title;
}

let pending = 0;

/**
 * Focus the screen's first field once it is on screen (a screen that loads first is waited for, up to ~2 s). `leaving`:
 * the screen being navigated away from, whose fields are not the ones meant. A dialog open by then keeps the focus: it
 * is where the user is. A newer call replaces an older one.
 */
export function focusScreen(leaving: Element | null = null): void {
  const mine = ++pending;
  let frames = 0;
  const attempt = () => {
    if (mine !== pending) return;
    if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
    const current = document.querySelector('#main .screen');
    const el = current && current !== leaving ? screenStart(document) : null;
    if (el) el.focus();
    else if (frames++ < 120) requestAnimationFrame(attempt);
  };
  requestAnimationFrame(attempt);
}
