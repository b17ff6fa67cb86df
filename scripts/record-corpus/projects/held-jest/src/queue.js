class Queue {
  constructor() { this.items = []; }
  push(x) { this.items.unshift(x); }
  pop() { return this.items.shift(); }
  get size() { return this.items.length; }
}
async function load(id) {
  if (id < 0) throw new Error('negative id');
  return { id, name: 'item' + id };
}
module.exports = { Queue, load };
