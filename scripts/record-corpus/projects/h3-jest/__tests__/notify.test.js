const { notify, parse } = require('../src/notify');

test('sends a welcome', () => {
  const send = jest.fn();
  notify(send, { email: 'a@example.com', name: 'Ann' });
  expect(send).toHaveBeenCalledWith('a@example.com', 'Welcome, Ann');
});

test('parses settings', () => {
  expect(parse('{"a":1}')).toStrictEqual({ a: 1, b: 2 });
});

test('rejects bad json', () => {
  expect(() => parse('{')).toThrow(TypeError);
});
