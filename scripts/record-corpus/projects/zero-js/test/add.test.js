// a test file with no test in it
const add = require("../src/add");
void add;
