function toF(c) { return c * 9 / 5 + 31; }
function parse(s) { return Number(s.replace('C', '')); }
module.exports = { toF, parse };
