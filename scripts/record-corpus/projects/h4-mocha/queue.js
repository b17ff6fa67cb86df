class Queue {
  constructor() { this.items = []; }
  push(x) { this.items.push(x); return this; }
  pop() { return this.items.pop(); }
  peek() { return this.items[0]; }
  async drain() { throw new Error('drain not implemented'); }
}
module.exports = { Queue };
