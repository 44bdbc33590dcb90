// Build the slub-wasm crate and generate its JS glue into web/src/sim/pkg (gitignored).
//
//   node scripts/build-wasm.mjs
//
// `--target web` glue is an ES module whose default export fetches the .wasm next to it (Vite
// bundles it through `new URL(..., import.meta.url)`) and whose `initSync({ module })` takes the
// bytes directly (node tests and benchmarks read them with fs). Needs the wasm32 target and the
// wasm-bindgen CLI that `scripts/setup.mjs` installs.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, log, mtime, must, root, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';

const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
export const wasmInput = join(targetDir, 'wasm32-unknown-unknown', 'release', 'slub_wasm.wasm');
export const pkgDir = join(root, 'web', 'src', 'sim', 'pkg');
export const pkgWasm = join(pkgDir, 'slub_wasm_bg.wasm');

export function buildWasm() {
  must('build-wasm', 'cargo', [
    'build',
    '--release',
    '--quiet',
    '-p',
    'slub-wasm',
    '--target',
    'wasm32-unknown-unknown',
  ]);
  const version = wasmBindgenVersion();
  const stamp = join(pkgDir, '.wasm-bindgen-version');
  const fresh =
    mtime(pkgWasm) >= mtime(wasmInput) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === version;
  if (fresh) {
    log('build-wasm', 'web/src/sim/pkg is up to date');
    return;
  }
  const bin = wasmBindgenBin(version);
  if (!existsSync(bin)) {
    console.error(`[build-wasm] ${bin} is missing: run \`node scripts/setup.mjs\` first`);
    process.exit(1);
  }
  mkdirSync(pkgDir, { recursive: true });
  must('build-wasm', bin, ['--target', 'web', '--out-dir', pkgDir, wasmInput]);
  writeFileSync(stamp, `${version}\n`);
  log('build-wasm', `generated web/src/sim/pkg with wasm-bindgen ${version}`);
}

if (isMain(import.meta.url)) buildWasm();
