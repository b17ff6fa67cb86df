// @vitest-environment jsdom
// No terminal text in the app (issue 34 item 9): the engine's sentences that name a command read in the app's words.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { makeSettings } from '../../dev/fixtures-misc';
import { installFake } from '../test-helpers';
import { SettingsScreen } from '../screens/SettingsScreen';
import { appWords, classNamesInWords, tddViolationSentence } from './app-words';
import { errorMessage } from './errors';

afterEach(cleanup);

describe('the app’s words', () => {
  it('says what to do in the app, not the command to type', () => {
    expect(errorMessage(new Error('/tmp/x is not a git repository. Run `git init` and commit your code first, or choose another folder.'))).toBe(
      '/tmp/x is not a git repository. Make it a git repository with a first commit, or choose another folder.',
    );
    expect(
      appWords(
        'task budget of $0.0040 reached ($0.0059 spent); nothing is lost: give the run more with ratchet resume r-1 --budget <usd> (in the app: Raise budget and continue)',
      ),
    ).toBe('task budget of $0.0040 reached ($0.0059 spent); nothing is lost: give the run more with Raise budget and continue');
  });

  it('says a test-first violation in a sentence for the user, not the agent’s “your test…” (issue 34 item 5)', () => {
    const said = tddViolationSentence(
      "test first: your test attempt added no test (it changed src/slug.mjs, none of them a test); add a test for the step's change in test/, one that fails until the change is made",
    );
    expect(said).toBe(
      'Test first: the test attempt wrote no test (it changed src/slug.mjs, none of them a test), so there was nothing to fail before the change. The next attempt is asked for the test again.',
    );
    expect(tddViolationSentence('something new')).toMatch(/^Test first: the test attempt did not keep the rule/);
    // The policy's reasons (the decision box) name classes in words, not codes (issue 34 item 10).
    expect(classNamesInWords('tdd_violation: limit of 1 retry reached')).toBe('TDD violation: limit of 1 retry reached');
    expect(classNamesInWords('test_failure: retry 1 of 3')).toBe('test failure: retry 1 of 3');
    // After the last attempt there is no next one to speak of (seen in screen-run-tdd-violation).
    expect(tddViolationSentence('something new', { last: true })).not.toMatch(/next attempt/);
  });

  it('says once, without backticks, that a key is kept in memory (issue 34 item 8)', async () => {
    installFake({
      overrides: {
        'settings.get': () => ({
          ...makeSettings(),
          apiKeySet: true,
          apiKeySource: 'session' as const,
          apiKeyWarning:
            'This key is kept in memory only until `ratchet serve` stops. To keep it, set ANTHROPIC_API_KEY in the environment of `ratchet serve`.',
        }),
      },
    });
    render(<SettingsScreen />);
    const section = await screen.findByRole('region', { name: 'Anthropic API key' });
    await waitFor(() => expect(section.textContent).toMatch(/memory/));
    expect(section.textContent).not.toContain('`');
    expect(section.textContent!.split('memory').length - 1).toBe(1);
  });
});
