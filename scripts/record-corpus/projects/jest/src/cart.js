function total(items) {
  return items.reduce((sum, i) => sum + i.price, 0);
}

function discount(code) {
  return code === 'HALF' ? 0.4 : 0;
}

function tags(s) {
  return s.split(',');
}

module.exports = { total, discount, tags };
