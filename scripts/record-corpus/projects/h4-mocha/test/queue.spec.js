const assert = require('node:assert/strict');
const { Queue } = require('../queue');

describe('Queue', function () {
  describe('#pop()', function () {
    it('returns the oldest item', function () {
      const q = new Queue().push('a').push('b');
      assert.equal(q.pop(), 'a');
    });
  });

  describe('#peek()', function () {
    it('sees the head — «tête»', function () {
      assert.strictEqual(new Queue().push(1).peek(), 2, 'head should be 2');
    });
    it('reports the items', function () {
      assert.deepEqual(new Queue().push({ id: 1 }).items, [{ id: 2 }]);
    });
  });

  it('drains asynchronously', async function () {
    await new Queue().drain();
  });

  it('is not empty', function () {
    assert.ok(new Queue().items.length > 0);
  });
});
