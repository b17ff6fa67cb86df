function start(port) {
  const host = 'localhost';
  console.log('starting on ' + prot);
  return port;
}

module.exports = { start };
