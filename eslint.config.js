// ESLint flat config. Warnings fail `npm test` (--max-warnings=0).
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: ['dist/', 'target/', 'node_modules/', '.tools/', 'test-results/', 'web/src/sim/pkg/', 'web/src/sim/pkg-fast/', 'web/src/sim/pkg-lab/'],
  },
  js.configs.recommended,
  {
    files: ['web/**/*.{ts,tsx}'],
    extends: [tseslint.configs.strictTypeChecked],
    languageOptions: {
      parserOptions: {
        project: ['web/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
      globals: globals.browser,
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `onClick={() => dispatch(...)}` is the React idiom.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    extends: [reactHooks.configs.flat.recommended],
  },
  {
    // The wasm packages (pkg, pkg-fast, pkg-lab) are reached only through the bridge (web/src/sim/): it
    // turns JSON into typed, version-checked views and every failure into SimError or SimCrash.
    files: ['web/**/*.{ts,tsx,js,mjs}'],
    ignores: ['web/src/sim/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/pkg/slub_wasm*', '**/sim/pkg', '**/sim/pkg/**', '**/pkg-lab/slub_lab_wasm*', '**/sim/pkg-lab', '**/sim/pkg-lab/**', '**/sim/pkg-fast', '**/sim/pkg-fast/**'],
              message:
                'Only web/src/sim/ may import the wasm package: use the bridge (web/src/sim), ' +
                'which parses and version-checks what crosses and sorts errors from crashes.',
            },
          ],
        },
      ],
    },
  },
  {
    // Rendering is a pure function of the view (design.md §2): layouts and D3 views take arrays and
    // an element; they know nothing of React, the player state or the page.
    files: ['web/src/render/**/*.ts'],
    // Its tests run the real simulator to get real views.
    ignores: ['web/src/render/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'react', message: 'render/ is plain TypeScript + D3: React lives in web/src/ui/.' },
            { name: 'react-dom', message: 'render/ is plain TypeScript + D3: React lives in web/src/ui/.' },
          ],
          patterns: [
            {
              group: ['**/state/**', '**/state', '**/ui/**', '**/ui'],
              message: 'render/ takes the view and options as arguments; it imports no store and no UI.',
            },
            {
              regex: '(^|/)sim(/(?!types$).*)?$',
              message: 'render/ may import only the view types (../sim/types), never the simulator.',
            },
          ],
        },
      ],
    },
  },
  {
    // Node scripts and the end-to-end tests.
    files: ['scripts/**/*.mjs', 'web/e2e/**/*.mjs', '*.js'],
    languageOptions: { globals: globals.node },
  },
  {
    // Browser tests and benchmarks also hold functions that run in the page (page.evaluate).
    files: ['web/e2e/**/*.mjs', 'scripts/bench-web.mjs'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
