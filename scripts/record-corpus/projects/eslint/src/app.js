const unused = 1;

function greet(name) {
  if (name == undefined) {
    return 'hi ' + nme;
  }
  return 'hi ' + name;
}

module.exports = { greet };
