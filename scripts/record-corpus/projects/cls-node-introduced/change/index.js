const leftPad = require('left-pad');

function label(n) {
  return `#${leftPad(n, 4, '0')}`;
}

console.log(label(7));
