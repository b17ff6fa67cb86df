// @vitest-environment jsdom
// Settings › GitHub: a token saved only once GitHub says whose it is (a refused one is said in plain words and not kept),
// the API address for Enterprise, and a token from the environment shown as in use with no field to replace it.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { installFake } from '../test-helpers';
import { SettingsScreen } from './SettingsScreen';

afterEach(() => cleanup());

describe('Settings › GitHub', () => {
  it('saves a token GitHub accepts (showing whose it is), refuses one it does not, and keeps the API address', async () => {
    const fake = installFake();
    render(<SettingsScreen />);
    const section = await screen.findByRole('region', { name: 'GitHub' });
    expect(section.textContent).toContain('No token');
    fireEvent.change(within(section).getByRole('textbox', { name: 'GitHub API address' }), { target: { value: 'https://git.example.com/api/v3' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save address' }));
    await within(section).findByText('API address checked and saved.');
    fireEvent.change(within(section).getByLabelText('new GitHub token'), { target: { value: 'bad' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save token' }));
    expect((await within(section).findByRole('alert')).textContent).toMatch(/refused this token/);
    fireEvent.change(within(section).getByLabelText('new GitHub token'), { target: { value: 'ghp_good' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Save token' }));
    expect((await within(section).findByTestId('github-login')).textContent).toBe('octo-dev');
    expect(fake.calls.filter((c) => c.method === 'github.set').map((c) => c.input)).toEqual([
      { apiUrl: 'https://git.example.com/api/v3' },
      { token: 'bad' },
      { token: 'ghp_good' },
    ]);
  });

  it('a token from the environment is shown as in use, with no field to replace it', async () => {
    installFake({
      overrides: {
        'github.settings': () => ({
          tokenSource: 'environment',
          tokenEnv: 'GH_TOKEN',
          tokenWarning: null,
          login: null,
          apiUrl: 'https://api.github.com',
          apiUrlSource: 'default',
        }),
      },
    });
    render(<SettingsScreen />);
    const section = await screen.findByRole('region', { name: 'GitHub' });
    await waitFor(() => expect(section.textContent).toContain('GH_TOKEN from the environment'));
    expect(within(section).queryByLabelText('new GitHub token')).toBeNull();
  });
});
