// Fixture: a Rust crate (no external crates) built and tested with `cargo test`; a real bug that drops the last run of a run-length encoding.
import { replace, say, turn } from '../fixture-project';
import { bash, commitAll, confirmBug, developerEnv, gitProject, has, Unavailable, type RealProject } from './real-project';

const CARGO_TOML = `[package]
name = "rle"
version = "0.4.1"
edition = "2021"
description = "Run-length encoding of text: \\"aaab\\" <-> \\"3ab\\"."
license = "MIT"

[dependencies]
`;

const LIB = `//! Run-length encoding of text: a run of more than one equal character is written as its count and the character.

/// Encodes \`input\`: \`"aaabcc"\` becomes \`"3ab2c"\`.
pub fn encode(input: &str) -> String {
    let mut out = String::new();
    let mut current: Option<(char, usize)> = None;
    for c in input.chars() {
        current = match current {
            Some((p, n)) if p == c => Some((p, n + 1)),
            Some((p, n)) => {
                push_run(&mut out, p, n);
                Some((c, 1))
            }
            None => Some((c, 1)),
        };
    }
    out
}

/// Decodes what [\`encode\`] wrote.
pub fn decode(input: &str) -> String {
    let mut out = String::new();
    let mut count = 0usize;
    for c in input.chars() {
        if let Some(d) = c.to_digit(10) {
            count = count * 10 + d as usize;
        } else {
            out.extend(std::iter::repeat(c).take(count.max(1)));
            count = 0;
        }
    }
    out
}

fn push_run(out: &mut String, c: char, n: usize) {
    if n > 1 {
        out.push_str(&n.to_string());
    }
    out.push(c);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodes_every_run() {
        assert_eq!(encode("aaabcc"), "3ab2c");
    }

    #[test]
    fn encodes_a_single_character() {
        assert_eq!(encode("x"), "x");
    }

    #[test]
    fn decodes_counts_of_more_than_one_digit() {
        assert_eq!(decode("12a"), "a".repeat(12));
    }

    #[test]
    fn round_trips() {
        let text = "wwwwhyyyy  nott";
        assert_eq!(decode(&encode(text)), text);
    }
}
`;

const README = `# rle

Run-length encoding of text.

## Development

    cargo test
`;

/** Why this machine cannot build the Rust fixture, else null. */
export function rustUnavailable(): string | null {
  return has('cargo') ? null : 'cargo is not installed (or rustup has no default toolchain)';
}

/** The crate as its developer has it after `cargo test`: target/ in the checkout (gitignored), Cargo.lock committed. */
export function makeRustCrate(): RealProject {
  const why = rustUnavailable();
  if (why) throw new Unavailable(why);
  const repo = gitProject('rust', { 'Cargo.toml': CARGO_TOML, 'README.md': README, '.gitignore': '/target\n', 'src/lib.rs': LIB });
  const shellEnv = developerEnv();
  const failingTest = 'encodes_every_run';
  // The developer's first `cargo test` writes Cargo.lock (committed) and target/ (ignored), and shows the bug.
  confirmBug(repo, 'cargo test', shellEnv, failingTest);
  commitAll(repo, 'rle 0.4.1');
  return {
    ecosystem: 'rust',
    repo,
    testCommand: 'cargo test',
    shellEnv,
    step: {
      title: 'Encode the last run',
      prompt: 'encode("aaabcc") returns "3ab": the last run of characters is lost. Fix encode() in src/lib.rs; the tests are at the end of that file.',
    },
    failingTest,
    attempts: [
      [
        bash('grep -n "out$" src/lib.rs'),
        // Incomplete: the last character is written, its count is not.
        turn(
          replace(
            'src/lib.rs',
            '            None => Some((c, 1)),\n        };\n    }\n    out\n',
            '            None => Some((c, 1)),\n        };\n    }\n    if let Some((p, _)) = current {\n        out.push(p);\n    }\n    out\n',
          ),
        ),
        say('encode() now writes the last character.'),
      ],
      [
        turn(
          replace(
            'src/lib.rs',
            '    if let Some((p, _)) = current {\n        out.push(p);\n    }\n',
            '    if let Some((p, n)) = current {\n        push_run(&mut out, p, n);\n    }\n',
          ),
        ),
        say('encode() writes the last run with its count, like every other run.'),
      ],
    ],
    attempt1FailingTest: 'encodes_every_run',
    fixFiles: ['src/lib.rs'],
    untrackedDirs: ['target'],
  };
}
