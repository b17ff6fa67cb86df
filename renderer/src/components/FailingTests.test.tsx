// @vitest-environment jsdom
// Tests for the failing-tests panel: the same entries as the retry prompt (compile errors first), each with its file:line.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { FailingTests } from './FailingTests';

afterEach(cleanup);

describe('FailingTests', () => {
  it('lists compile errors before failing tests, each with where it is', () => {
    render(
      <FailingTests
        failures={[
          { name: 'tests/test_calc.py::test_add', message: 'assert 6 == 5', expected: '5', actual: '6', file: 'tests/test_calc.py', line: 7 },
          {
            kind: 'compile',
            name: 'src/a.ts:12:5 TS2322',
            message: "Type 'string' is not assignable to type 'number'.",
            expected: null,
            actual: null,
            file: 'src/a.ts',
            line: 12,
            column: 5,
            code: 'TS2322',
          },
        ]}
      />,
    );
    expect(screen.getByText('1 error and 1 failing test')).toBeTruthy();
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('src/a.ts:12:5 TS2322');
    expect(rows[0]!.getAttribute('data-kind')).toBe('compile');
    expect(rows[1]!.textContent).toContain('tests/test_calc.py::test_add');
    expect(screen.getByText('tests/test_calc.py:7')).toBeTruthy();
    expect(screen.getByText('5')).toBeTruthy();
    expect(screen.getByText('6')).toBeTruthy();
  });

  it('renders nothing without failures', () => {
    const { container } = render(<FailingTests failures={[]} />);
    expect(container.textContent).toBe('');
  });
});

describe('FailingTests locations', () => {
  it('makes each file:line a keyboard-reachable button when it can be located, and shows no link without a file', () => {
    const located: string[] = [];
    render(
      <FailingTests
        onLocate={(f) => located.push(`${f.file}:${f.line}`)}
        failures={[
          { name: 'a', message: null, expected: null, actual: null, file: 'src/a.ts', line: 3 },
          { name: 'b', message: null, expected: null, actual: null, file: null, line: null },
        ]}
      />,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual(['src/a.ts:3']);
    expect(buttons[0]!.tagName).toBe('BUTTON');
    fireEvent.click(buttons[0]!);
    expect(located).toEqual(['src/a.ts:3']);
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows[1]!.querySelector('button')).toBeNull();
    expect(rows[1]!.textContent).toContain('—');
  });
});
