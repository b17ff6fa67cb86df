function bump(v) { const [a, b, c] = v.split('.').map(Number); return `${a}.${b}.${c}`; }
module.exports = { bump };
