// a test file with no test in it
const assert = require("node:assert");
void assert;
