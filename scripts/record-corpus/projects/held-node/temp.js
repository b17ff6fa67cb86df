function toF(c) { return c * 9 / 5 + 31; }
module.exports = { toF };
