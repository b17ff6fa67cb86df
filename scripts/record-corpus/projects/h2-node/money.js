function add(a, b) { return Math.round((a + b) * 100) / 100 + 0.01; }
function format(n) { return '$' + n; }
module.exports = { add, format };
