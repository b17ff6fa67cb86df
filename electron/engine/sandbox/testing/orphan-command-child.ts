// Test fixture run as its own process: starts one sandboxed command as a gate does (its own process group) and waits, to be killed with SIGKILL by the test.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createOsSandbox } from '../os-sandbox';

const [home = '', marker = ''] = process.argv.slice(2);
if (!home || !marker) throw new Error('usage: orphan-command-child.ts <ratchet-home> <marker>');
const worktree = join(home, 'worktrees', `orphan-${process.pid}`);
mkdirSync(worktree, { recursive: true });
const sandbox = createOsSandbox({ mode: 'auto', ratchetHome: home, env: process.env });
const jail = await sandbox.forRun({ worktree, network: [], envNames: [] });
// A gate waiting on something that never comes (a latch, a server that never answers).
const launch = await jail.wrap('/bin/sh', `echo ${marker} > /dev/null; sleep 1000`);
const child = spawn(launch.file, launch.args, { cwd: worktree, env: launch.env, detached: true, stdio: 'ignore' });
process.stdout.write(`${JSON.stringify({ pid: child.pid })}\n`);
setInterval(() => undefined, 1000);
