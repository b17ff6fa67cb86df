// The demo gate: the development tree may start the scripted demo; an installed app never, whatever its environment says.
import { describe, expect, it } from 'vitest';
import { demoWanted } from './demo-gate';

describe('demoWanted', () => {
  it('is off in an installed app, even with RATCHET_DEMO=1 or --demo', () => {
    expect(demoWanted({ isPackaged: true, env: { RATCHET_DEMO: '1' }, argv: ['/opt/Ratchet/ratchet', '--demo'] })).toBe(false);
  });
  it('is on in the development tree with RATCHET_DEMO=1 or --demo, off without', () => {
    expect(demoWanted({ isPackaged: false, env: { RATCHET_DEMO: '1' }, argv: [] })).toBe(true);
    expect(demoWanted({ isPackaged: false, env: {}, argv: ['electron', '.', '--demo'] })).toBe(true);
    expect(demoWanted({ isPackaged: false, env: { RATCHET_DEMO: '0' }, argv: [] })).toBe(false);
  });
});
