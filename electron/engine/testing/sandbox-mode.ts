// Test helper: whether the OS sandbox works on this machine, so tests run sandboxed where they can and say why not elsewhere.
import { sandboxStatus, type SandboxMode } from '../sandbox/os-sandbox';

const status = sandboxStatus('auto');

/** True where bubblewrap (Linux) or sandbox-exec (macOS) and the library's helpers are installed. */
export const SANDBOX_AVAILABLE = status.state === 'on';
/** Why sandboxed tests are skipped here. */
export const NO_SANDBOX_REASON = status.message ?? '';
/** The mode for engines in tests that do real runs: sandboxed where possible, explicitly opted out elsewhere. */
export const TEST_SANDBOX_MODE: SandboxMode = SANDBOX_AVAILABLE ? 'auto' : 'off';
