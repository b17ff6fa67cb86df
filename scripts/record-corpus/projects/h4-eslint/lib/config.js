const path = require('path');

let defaults = { port: 8080, host: 'localhost', port: 9090 };

function load(file) {
  if (!file) return defaults;
  console.log('loading', file);
  return require(file);
}

module.exports = { load };
