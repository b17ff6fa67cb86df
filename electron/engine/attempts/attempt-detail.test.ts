// The failing-test table's expected and got cells: a failure stored without them, whose message has
// them ("Expected 100, got 0", "expected 5 to be 6"), is answered with them filled, by the parser the gates use.
import { describe, expect, it } from 'vitest';
import { withExpectedActual } from './attempt-detail';

const f = (message: string | null, expected: string | null = null, actual: string | null = null) => ({
  name: 't',
  message,
  expected,
  actual,
  file: null,
  line: null,
});

describe('withExpectedActual', () => {
  it('fills expected and got from the message when the parser left them empty', () => {
    expect(withExpectedActual([f('Expected 100, got 0')])[0]).toMatchObject({ expected: '100', actual: '0' });
    expect(withExpectedActual([f('expected 120 to be 100 // Object.is equality')])[0]).toMatchObject({ expected: '100', actual: '120' });
  });

  it('keeps what the parser found, and a message with neither as it is', () => {
    expect(withExpectedActual([f('Expected 100, got 0', '7', '8')])[0]).toMatchObject({ expected: '7', actual: '8' });
    expect(withExpectedActual([f('TypeError: x is not a function')])[0]).toMatchObject({ expected: null, actual: null });
    expect(withExpectedActual([f(null)])[0]).toMatchObject({ expected: null, actual: null });
  });
});
