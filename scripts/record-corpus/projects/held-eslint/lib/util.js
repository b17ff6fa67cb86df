function same(a, b) {
  return a != b;
}

module.exports = { same };
