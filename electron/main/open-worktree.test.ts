// Which program opens a run's worktree, per platform and what is installed.
import { describe, expect, it } from 'vitest';
import { launchFor } from './open-worktree';

describe('launchFor', () => {
  const none = () => false;
  it('opens Terminal on macOS, cmd on Windows, the first terminal found on Linux', () => {
    expect(launchFor('terminal', '/w', 'darwin', none)).toEqual({ kind: 'spawn', command: 'open', args: ['-a', 'Terminal', '/w'], cwd: '/w' });
    expect(launchFor('terminal', 'C:\\w', 'win32', none)).toMatchObject({ command: 'cmd.exe' });
    expect(launchFor('terminal', '/w', 'linux', (p) => p === 'konsole')).toEqual({ kind: 'spawn', command: 'konsole', args: ['--workdir', '/w'], cwd: '/w' });
    expect(launchFor('terminal', '/w', 'linux', none)).toBeNull();
  });

  it('prefers $VISUAL, then known editors; the file manager for a folder', () => {
    expect(launchFor('editor', '/w', 'linux', (p) => p === 'zed' || p === 'code', 'zed')).toMatchObject({ command: 'zed', args: ['/w'] });
    expect(launchFor('editor', '/w', 'linux', (p) => p === 'code')).toMatchObject({ command: 'code' });
    expect(launchFor('editor', '/w', 'linux', none)).toBeNull();
    expect(launchFor('folder', '/w', 'linux', none)).toEqual({ kind: 'folder', path: '/w' });
  });
});
