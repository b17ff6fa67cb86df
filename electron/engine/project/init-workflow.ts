// The workflow file `ratchet init` writes: the detected setup, gates and files to copy as YAML a developer can review, each with why it was proposed.
import { stringify } from 'yaml';
import type { DetectedProject } from './proposal';

/** What detection looks for, said when it found no test command. */
export const NOT_FOUND =
  'looked for package.json test scripts, pytest/unittest, Cargo, Go, Maven, Gradle, CMake with tests, and a Makefile test target that runs a test runner';

/** A one-line YAML scalar: plain when YAML allows it, quoted otherwise. */
function scalar(value: string): string {
  return stringify(value, { lineWidth: 0 }).trimEnd();
}

function comment(text: string, indent = ''): string[] {
  return text.split('\n').map((l) => `${indent}# ${l}`.trimEnd());
}

/** Pure: the commented YAML for a detection; `ratchet check` accepts it as it is. */
export function initWorkflowText(detected: DetectedProject, repoName: string): string {
  const out: string[] = [];
  const found = detected.found.map((f) => `${f.label} (${f.evidence.join(', ')})`).join('; ');
  out.push(
    ...comment(`Ratchet workflow for ${repoName}, written by \`ratchet init\` from the repository's files. Review it, then commit it.`),
    ...comment(found ? `Detected: ${found}.` : 'Detected: no project files Ratchet knows.'),
    ...comment("Check it with `ratchet check ratchet.yml`; the app's New task shows it and can check the project before a run."),
    '',
  );

  out.push(
    ...comment(
      "setup: makes a fresh worktree ready to test. It runs in the sandbox when a run's worktree is made, and again\nwhen a lockfile or manifest changes. Only setup reaches `network` (the gates run without it).",
    ),
  );
  if (detected.setup.length) {
    out.push('setup:', '  run:');
    for (const s of detected.setup) out.push(...comment(s.why, '    '), `    - ${scalar(s.run)}`);
    if (detected.network.length) {
      out.push('  network:');
      for (const n of detected.network) out.push(...comment(n.why, '    '), `    - ${scalar(n.entry)}`);
    }
  } else out.push('# Nothing to install was detected.');
  out.push('');

  out.push(...comment("gates: commands that must pass after each of the agent's attempts; a failing gate's output goes into the retry."));
  if (detected.gates.length) {
    out.push('gates:');
    for (const g of detected.gates) out.push(...comment(g.why, '  '), `  ${g.name}: ${scalar(g.run)}`);
  } else {
    // Never `gates: {}`: a run with nothing to check would "succeed" on the agent's word (`ratchet check` and `ratchet run` refuse it).
    out.push(
      ...comment(`No test command was found (${NOT_FOUND}). Ratchet runs nothing until a gate is written.\nAdd the command that runs your tests:`),
      '# gates:',
      '#   test: <the command that runs your tests, e.g. ctest --test-dir build --output-on-failure>',
    );
  }
  out.push('');

  if (detected.copy.length) {
    out.push(
      ...comment(
        "copy: files git does not carry, copied from your checkout into each run's worktree (never committed by Ratchet).\nThe agent can read them: copy only what the tests need.",
      ),
    );
    out.push('copy:');
    for (const c of detected.copy) out.push(...comment(c.why, '  '), `  - ${scalar(c.glob)}`);
    out.push('');
  }

  if (detected.notes.length) {
    out.push('# Notes from detection:');
    for (const n of detected.notes) out.push(...comment(`- ${n}`));
    out.push('');
  }

  out.push(
    ...comment(
      'steps: left out, so each task gives its own (New task in the app, `ratchet run <repo> --task "…" --description "…"`,\nor `ratchet run <repo> --draft`). To run the same plan every time, list it:',
    ),
    '# steps:',
    '#   - title: Fix the failing test',
    '#     prompt: What to change, and how to tell it is done.',
    '',
  );
  return out.join('\n');
}
