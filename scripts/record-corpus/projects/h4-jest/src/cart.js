function total(items) {
  return items.reduce((s, i) => s + i.price, 0);
}
function summary(items) {
  return { count: items.length, total: total(items), currency: 'EUR' };
}
function checkout(items, pay) {
  if (items.length === 0) throw new Error('empty cart');
  pay(total(items), 'EUR');
}
function title(name) {
  return `Panier de ${name}`;
}
module.exports = { total, summary, checkout, title };
