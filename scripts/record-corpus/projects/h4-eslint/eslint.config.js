module.exports = [
  {
    files: ['lib/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { 'no-unused-vars': 'error', 'prefer-const': 'error', 'no-console': 'warn', curly: 'error', 'no-dupe-keys': 'error' },
  },
];
