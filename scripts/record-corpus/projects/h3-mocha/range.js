function range(n) { return Array.from({ length: n }, (_, i) => i + 1); }
function at(xs, i) { if (i >= xs.length) throw new RangeError('index ' + i + ' out of range'); return xs[i]; }
module.exports = { range, at };
