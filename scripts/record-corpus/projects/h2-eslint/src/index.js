function load(path, unusedOpt) {
  var data = read(path);
  if (data == null) return;
  return data;
}

module.exports = { load };
