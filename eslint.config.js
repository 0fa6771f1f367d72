import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'dist/', 'data/', 'bench/results/', 'clients/typescript/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly' },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // Access and rate limits attach to routes (encapsulated plugins' hooks, route options), never
    // to URL text: the router decodes what a prefix check does not (docs/SECURITY.md).
    files: ['src/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[object.name=/^(request|req|raw)$/][property.name='url']",
          message: 'Do not read the request URL to decide anything: attach hooks to routes (an encapsulated plugin) or use request.routeOptions. For display, use requestPath() from platform/http/request-path.ts.',
        },
      ],
    },
  },
  {
    // Metrics are declared through the app's MetricsRegistry: prom-client's own constructors and
    // default metrics register in its global registry unless told otherwise, and apps sharing a
    // process would then count into one another's metrics.
    files: ['src/**'],
    ignores: ['src/platform/metrics.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { paths: [{ name: 'prom-client', allowTypeImports: true, message: 'Declare metrics through MetricsRegistry (src/platform/metrics.ts).' }] },
      ],
    },
  },
  {
    files: ['bin/**', 'scripts/**', 'bench/**', 'src/main.ts', 'src/cli/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
);
