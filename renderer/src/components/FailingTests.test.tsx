// @vitest-environment jsdom
// Tests for the failing-tests panel: the same entries as the retry prompt (compile errors first), each with its file:line.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { FailingTests } from './FailingTests';

afterEach(cleanup);

describe('FailingTests', () => {
  it('lists compile errors before failing tests, each with where it is', () => {
    render(
      <FailingTests
        failures={[
          { name: 'tests/test_calc.py::test_add', message: 'assert 6 == 5', expected: '5', actual: '6', file: 'tests/test_calc.py', line: 7 },
          { kind: 'compile', name: 'src/a.ts:12:5 TS2322', message: "Type 'string' is not assignable to type 'number'.", expected: null, actual: null, file: 'src/a.ts', line: 12, column: 5, code: 'TS2322' },
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
