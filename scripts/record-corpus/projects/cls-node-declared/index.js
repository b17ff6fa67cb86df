const _ = require('lodash');

console.log(_.sum([1, 2, 3]));
