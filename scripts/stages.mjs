// The stages of `npm test`, in order (run by scripts/test.mjs; README.md says how many there
// are, and scripts/check-refs.mjs fails when that count and this list disagree).
import { join } from 'node:path';
import { root } from './lib.mjs';

const bin = (name) => join(root, 'node_modules', '.bin', name);

/** [name, command, args, lint?] */
export const STAGES = [
  // Every "§", scenario id and document a comment or doc cites is in the repository.
  ['references', 'node', [join(root, 'scripts', 'check-refs.mjs')], true],
  // The scripts' own tests (node's test runner): check-refs on fixtures, the commit-msg hook,
  // docs/architecture.md's walks against the code, and its line on the model's import graph.
  [
    'script tests',
    'node',
    [
      '--test',
      join(root, 'scripts', 'check-refs.test.mjs'),
      join(root, 'scripts', 'commit-msg.test.mjs'),
      join(root, 'scripts', 'architecture.test.mjs'),
      join(root, 'scripts', 'model-graph.test.mjs'),
    ],
    true,
  ],
  ['rustfmt', 'cargo', ['fmt', '--all', '--check'], true],
  ['clippy (native)', 'cargo', ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings'], true],
  [
    'clippy (wasm32)',
    'cargo',
    ['clippy', '-p', 'slub-sim', '-p', 'slub-lab-core', '-p', 'slub-wasm', '-p', 'slub-lab-wasm', '--target', 'wasm32-unknown-unknown', '--', '-D', 'warnings'],
    true,
  ],
  ['cargo test', 'cargo', ['test', '--workspace', '--release'], false],
  // The lessons as authors write them, every claim replayed (cargo test built the binary).
  ['lessons', join(root, 'target', 'release', 'slub-lab'), ['lesson', 'check', 'lessons'], false],
  ['wasm build', 'node', [join(root, 'scripts', 'build-wasm.mjs')], false],
  ['tsc', bin('tsc'), ['--noEmit', '-p', 'web'], true],
  ['eslint', bin('eslint'), ['--max-warnings=0', '.'], true],
  ['vitest', bin('vitest'), ['run', '--config', 'web/vitest.config.ts'], false],
  ['vite build', bin('vite'), ['build', 'web', '--logLevel', 'warn'], false],
  // The user stories in chromium (@playwright/test; the list reporter prints each story's name).
  ['e2e (chromium)', bin('playwright'), ['test', '-c', join(root, 'web', 'e2e', 'playwright.config.mjs')], false],
];
