// Shared helpers of the setup, build and test scripts. Plain Node (no npm dependencies): these
// scripts run before `npm install`.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** Print a progress line of one of our scripts. */
export function log(script, message) {
  console.log(`[${script}] ${message}`);
}

/**
 * Run a command in the repository root with inherited stdio. Returns true on exit status 0.
 * `capture: true` returns `{ ok, stdout }` instead and pipes stdout.
 */
export function run(cmd, args, { capture = false, cwd = root, env } = {}) {
  const result = spawnSync(cmd, args, {
    cwd,
    env: env ? { ...process.env, ...env } : process.env,
    stdio: capture ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
  });
  if (result.error && result.error.code !== 'ENOENT') throw result.error;
  const ok = result.status === 0;
  return capture ? { ok, stdout: result.stdout ?? '' } : ok;
}

/** Run a command; exit the script with a message if it fails. */
export function must(script, cmd, args, options) {
  if (!run(cmd, args, options)) {
    console.error(`[${script}] failed: ${cmd} ${args.join(' ')}`);
    process.exit(1);
  }
}

/** The version of the `wasm-bindgen` crate in Cargo.lock: the CLI must be exactly that one. */
export function wasmBindgenVersion() {
  const lock = readFileSync(join(root, 'Cargo.lock'), 'utf8');
  const m = /\[\[package\]\]\s*\nname = "wasm-bindgen"\s*\nversion = "([^"]+)"/.exec(lock);
  if (!m) throw new Error('Cargo.lock has no wasm-bindgen package; run `cargo generate-lockfile`');
  return m[1];
}

/** Where setup installs the wasm-bindgen CLI of that version (one folder per version). */
export function wasmBindgenRoot(version = wasmBindgenVersion()) {
  return join(root, '.tools', `wasm-bindgen-${version}`);
}

export function wasmBindgenBin(version = wasmBindgenVersion()) {
  return join(wasmBindgenRoot(version), 'bin', 'wasm-bindgen');
}

/** Modification time in ms, or -Infinity for a missing file. */
export function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : -Infinity;
}

/** True when this module is the script node was asked to run. */
export function isMain(importMetaUrl) {
  return process.argv[1] !== undefined && fileURLToPath(importMetaUrl) === process.argv[1];
}
