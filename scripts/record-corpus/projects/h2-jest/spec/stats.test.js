const { mean, summary } = require('../lib/stats');

describe('mean', () => {
  test.each([
    [[1, 2, 3], 2],
    [[4], 4],
  ])('mean of %j is %d', (xs, want) => {
    expect(mean(xs)).toBeCloseTo(want, 5);
  });
});

test('summary', () => {
  expect(summary([3, 1, 2])).toMatchObject({ n: 3, min: 1, max: 3 });
});
