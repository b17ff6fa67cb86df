// Whether this Electron process may start the scripted demo: only from the development tree, never in an installed app.
import type { Demo } from '../host/demo';

export interface DemoGateInput {
  /** app.isPackaged: true in an installed app. */
  isPackaged: boolean;
  env: NodeJS.ProcessEnv;
  argv: string[];
}

/**
 * `npm start -- --demo` (RATCHET_DEMO=1 or --demo) in the development tree. An installed app ignores both, so no
 * environment variable or argument can point it at the scripted server instead of the API.
 */
export function demoWanted(input: DemoGateInput): boolean {
  if (input.isPackaged) return false;
  return input.env.RATCHET_DEMO === '1' || input.argv.includes('--demo');
}

/**
 * Loads the demo on demand: a dynamic import puts it (and the scripted server) in a chunk of its own, which
 * electron-builder.yml leaves out of the installers together with the demo's resources.
 */
export async function startDemoFromDevTree(env: NodeJS.ProcessEnv): Promise<Demo> {
  const { startDemo } = await import('../host/demo');
  return startDemo(env);
}
