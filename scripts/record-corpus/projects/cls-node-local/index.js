const { health } = require('./src/health');

console.log(health());
