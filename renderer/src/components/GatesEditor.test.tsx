// @vitest-environment jsdom
// The gates editor: with no gate it says what that means instead of a table of headers with no rows (issue 29's screenshots).
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { GatesEditor } from './GatesEditor';

afterEach(cleanup);

describe('GatesEditor', () => {
  it('with no gate, shows no empty table but says that nothing will check the work', () => {
    render(<GatesEditor rows={[]} onChange={() => undefined} />);
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.getByText(/No gate yet: nothing would check the agent's work/)).toBeTruthy();
    expect(screen.getByRole('button', { name: '+ Add gate' })).toBeTruthy();
  });

  it('with gates, shows them as rows under their headers', () => {
    render(<GatesEditor rows={[{ name: 'test', command: 'npm test' }]} onChange={() => undefined} />);
    expect(screen.getByRole('table')).toBeTruthy();
    expect((screen.getByLabelText('gate 1 command') as HTMLInputElement).value).toBe('npm test');
    expect(screen.queryByText(/No gate yet/)).toBeNull();
  });

  it('gives the name a narrow column and the command the rest, grown to be read whole (issue 34 item 8)', () => {
    const long = 'docker compose run --rm api sh -c "npm ci && npm run build && npm test -- --coverage --reporter=junit --outputFile=reports/junit.xml"';
    render(
      <GatesEditor
        rows={[
          { name: 'test', command: 'npm test' },
          { name: 'ci', command: long },
        ]}
        onChange={() => undefined}
      />,
    );
    const cols = [...screen.getByRole('table').querySelectorAll('col')];
    expect(cols[0]!.className).toBe('gate-name-col');
    const short = screen.getByLabelText('gate 1 command') as HTMLTextAreaElement;
    const grown = screen.getByLabelText('gate 2 command') as HTMLTextAreaElement;
    expect(grown.tagName).toBe('TEXTAREA');
    expect(short.rows).toBe(1);
    expect(grown.rows).toBeGreaterThan(1);
    expect(grown.value).toBe(long);
  });
});
