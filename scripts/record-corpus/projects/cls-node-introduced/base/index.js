function label(n) {
  return `#${n}`;
}

console.log(label(7));
