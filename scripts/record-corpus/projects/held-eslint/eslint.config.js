module.exports = [
  {
    files: ['lib/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { 'no-unused-vars': 'error', 'no-undef': 'error', eqeqeq: 'error' },
  },
];
