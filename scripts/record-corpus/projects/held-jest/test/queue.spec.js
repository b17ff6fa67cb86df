const { Queue, load } = require('../src/queue');

describe('Queue', () => {
  describe('order', () => {
    it('pops in FIFO order', () => {
      const q = new Queue();
      q.push(1);
      q.push(2);
      expect(q.pop()).toBe(1);
    });
  });

  it('has a size', () => {
    const q = new Queue();
    q.push('a');
    expect(q.size).toBeGreaterThan(1);
  });
});

describe('load', () => {
  it('names the item', async () => {
    await expect(load(3)).resolves.toEqual({ id: 3, name: 'item-3' });
  });

  it('contains the id', async () => {
    const item = await load(7);
    expect(item.name).toContain('8');
  });
});
