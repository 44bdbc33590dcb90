// Build the slub-wasm crate and generate its JS glue into web/src/sim/pkg (gitignored).
//
//   node scripts/build-wasm.mjs
//
// `--target web` glue is an ES module whose default export fetches the .wasm next to it (Vite
// bundles it through `new URL(..., import.meta.url)`) and whose `initSync({ module })` takes the
// bytes directly (node tests and benchmarks read them with fs). Needs the wasm32 target and the
// wasm-bindgen CLI that `scripts/setup.mjs` installs.
//
// The `name` section (function names for stack traces, 14 KB of the 203 KB gzipped) and the
// `producers` section are left out: the page ships 189 KB. A panic's message and location,
// which the crash screen shows, are not in them. (binaryen's wasm-opt, from npm, would take
// 2 KB more off at -O1 for a 104 MB dependency and seconds per build: not worth it.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, log, mtime, must, root, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';

const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
export const wasmInput = join(targetDir, 'wasm32-unknown-unknown', 'release', 'slub_wasm.wasm');
export const pkgDir = join(root, 'web', 'src', 'sim', 'pkg');
export const pkgWasm = join(pkgDir, 'slub_wasm_bg.wasm');
const BINDGEN_FLAGS = ['--target', 'web', '--remove-name-section', '--remove-producers-section'];

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
  // The stamp holds the CLI's version and flags: a change of either regenerates the package.
  const stamp = join(pkgDir, '.wasm-bindgen-version');
  const stamped = `${version} ${BINDGEN_FLAGS.join(' ')}`;
  const fresh =
    mtime(pkgWasm) >= mtime(wasmInput) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8').trim() === stamped;
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
  must('build-wasm', bin, [...BINDGEN_FLAGS, '--out-dir', pkgDir, wasmInput]);
  writeFileSync(stamp, `${stamped}\n`);
  log('build-wasm', `generated web/src/sim/pkg with wasm-bindgen ${version}`);
}

if (isMain(import.meta.url)) buildWasm();
