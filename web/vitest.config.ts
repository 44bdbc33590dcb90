// Unit and round-trip tests run in node: they load the wasm with `initSync` from the bytes of
// web/src/sim/pkg (built by scripts/build-wasm.mjs).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    environment: 'node',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/sim/test-global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 600_000,
  },
});
