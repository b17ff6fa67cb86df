module.exports = [
  {
    files: ['src/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable' } },
    rules: { 'no-unused-vars': 'warn', 'no-undef': 'error', eqeqeq: 'error', 'no-var': 'error' },
  },
];
