// Build the two wasm crates and generate their JS glue (both gitignored):
//   slub-wasm      → web/src/sim/pkg      the simulator every page loads;
//   slub-lab-wasm  → web/src/sim/pkg-lab  the Lab's seed comparisons, loaded by `#/lab` and its
//                                         worker only (their code is ~40 KB gzip of slub-wasm's
//                                         221 KiB: it ships 179 KiB without them).
//
//   node scripts/build-wasm.mjs
//
// `--target web` glue is an ES module whose default export fetches the .wasm next to it (Vite
// bundles it through `new URL(..., import.meta.url)`) and whose `initSync({ module })` takes the
// bytes directly (node tests and benchmarks read them with fs). Needs the wasm32 target and the
// wasm-bindgen CLI that `scripts/setup.mjs` installs.
//
// The profile is `wasm-release` (Cargo.toml): release at opt-level "s". Measured on slub-wasm
// (with the lab exports still in it): 265 → 221 KiB gzip, for a core loop 4.71 → 3.65 M steps/s
// (scripts/bench-wasm.mjs). The page's weight budget (≤ 300 KB gzip of JS + wasm) needs the
// bytes; the steps are still far more than a page asks for. Native builds keep opt-level 3.
//
// The `name` section (function names for stack traces) and the `producers` section are left
// out. A panic's message and location, which the crash screen shows, are not in them.
// (binaryen's wasm-opt, from npm, would take 2 KB more off at -O1 for a 104 MB dependency and
// seconds per build: not worth it.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, log, mtime, must, root, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';

const PROFILE = 'wasm-release';
const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const wasmOut = join(targetDir, 'wasm32-unknown-unknown', PROFILE);
const simDir = join(root, 'web', 'src', 'sim');

/** The crates built to wasm: package, its wasm file, the package dir under web/src/sim. */
const CRATES = [
  { crate: 'slub-wasm', input: join(wasmOut, 'slub_wasm.wasm'), dir: 'pkg', wasm: 'slub_wasm_bg.wasm' },
  { crate: 'slub-lab-wasm', input: join(wasmOut, 'slub_lab_wasm.wasm'), dir: 'pkg-lab', wasm: 'slub_lab_wasm_bg.wasm' },
];

export const wasmInput = CRATES[0].input;
export const pkgDir = join(simDir, 'pkg');
export const pkgWasm = join(pkgDir, 'slub_wasm_bg.wasm');
export const labPkgDir = join(simDir, 'pkg-lab');
export const labPkgWasm = join(labPkgDir, 'slub_lab_wasm_bg.wasm');
const BINDGEN_FLAGS = ['--target', 'web', '--remove-name-section', '--remove-producers-section'];

export function buildWasm() {
  must('build-wasm', 'cargo', [
    'build',
    '--profile',
    PROFILE,
    '--quiet',
    ...CRATES.flatMap(({ crate }) => ['-p', crate]),
    '--target',
    'wasm32-unknown-unknown',
  ]);
  const version = wasmBindgenVersion();
  // The stamp holds the CLI's version, the profile and the flags: a change of any regenerates
  // the package.
  const stamped = `${version} ${PROFILE} ${BINDGEN_FLAGS.join(' ')}`;
  for (const { input, dir, wasm } of CRATES) {
    const outDir = join(simDir, dir);
    const stamp = join(outDir, '.wasm-bindgen-version');
    const fresh =
      mtime(join(outDir, wasm)) >= mtime(input) &&
      existsSync(stamp) &&
      readFileSync(stamp, 'utf8').trim() === stamped;
    if (fresh) {
      log('build-wasm', `web/src/sim/${dir} is up to date`);
      continue;
    }
    const bin = wasmBindgenBin(version);
    if (!existsSync(bin)) {
      console.error(`[build-wasm] ${bin} is missing: run \`node scripts/setup.mjs\` first`);
      process.exit(1);
    }
    mkdirSync(outDir, { recursive: true });
    must('build-wasm', bin, [...BINDGEN_FLAGS, '--out-dir', outDir, input]);
    writeFileSync(stamp, `${stamped}\n`);
    log('build-wasm', `generated web/src/sim/${dir} with wasm-bindgen ${version}`);
  }
}

if (isMain(import.meta.url)) buildWasm();
