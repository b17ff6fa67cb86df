function parse(s) {
  const [h, m] = s.split(':').map(Number);
  return h * 60 + m + 1;
}
async function later(ms) {
  return new Promise((r) => setTimeout(() => r('late'), ms));
}
module.exports = { parse, later };
