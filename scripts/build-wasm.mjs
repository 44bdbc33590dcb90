// Build the wasm crates and generate their JS glue (all gitignored):
//   slub-wasm      → web/src/sim/pkg       the simulator a page that draws a stage loads,
//                                          built for size (profile wasm-release, opt-level
//                                          "s"), without the explorer's export;
//   slub-wasm      → web/src/sim/pkg-fast  the same crate built for speed (profile wasm-speed,
//                                          opt-level 3) with the `explore` feature, loaded only
//                                          by the explorer's worker;
//   slub-lab-wasm  → web/src/sim/pkg-lab   the Lab's seed comparisons, built for speed, loaded
//                                          by `#/lab` and its worker only.
//
//   node scripts/build-wasm.mjs [--compile-only]
//
// --compile-only runs the cargo builds and not wasm-bindgen: scripts/setup.mjs starts it in the
// background while it installs the wasm-bindgen CLI and node_modules.
//
// `--target web` glue is an ES module whose default export fetches the .wasm next to it (Vite
// bundles it through `new URL(..., import.meta.url)`) and whose `initSync({ module })` takes the
// bytes directly (node tests and benchmarks read them with fs). Needs the wasm32 target and the
// wasm-bindgen CLI that `scripts/setup.mjs` installs.
//
// Two profiles (Cargo.toml) because a page's stage and the searches want different things. The
// stage's build is opt-level "s": 3 → "s" took 289 → 238 KiB gzip for a core loop about 25 %
// slower (scripts/bench-wasm.mjs), still far more steps than a page asks for. "z" would take
// 16 KiB more off (222 → 206 KiB, without the explorer) but halves the core loop and the
// invariant checks (WASM_PKG=dir node scripts/bench-wasm.mjs compares builds), which the step
// of a big scenario pays on the page: not worth it. Leaving the explorer's export out of it
// (cargo feature `explore`) took 238 → 222 KiB. The explorer and the Lab run millions of steps
// and are fetched on demand: opt-level 3 (scripts/bench-wasm.mjs prints both builds' steps/s
// against native).
//
// The `name` section (function names for stack traces) and the `producers` section are left
// out. A panic's message and location, which the crash screen shows, are not in them.
// (binaryen's wasm-opt, from npm, would take 2 KB more off at -O1 for a 104 MB dependency and
// seconds per build: not worth it.)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isMain, log, mtime, must, root, wasmBindgenBin, wasmBindgenVersion } from './lib.mjs';

const SIZE = 'wasm-release';
const SPEED = 'wasm-speed';
const targetDir = process.env.CARGO_TARGET_DIR ?? join(root, 'target');
const wasmOut = (profile) => join(targetDir, 'wasm32-unknown-unknown', profile);
const simDir = join(root, 'web', 'src', 'sim');

/** The builds: crate, profile, its wasm file, the package dir under web/src/sim. */
const CRATES = [
  { crate: 'slub-wasm', profile: SIZE, input: join(wasmOut(SIZE), 'slub_wasm.wasm'), dir: 'pkg', wasm: 'slub_wasm_bg.wasm' },
  { crate: 'slub-wasm', profile: SPEED, input: join(wasmOut(SPEED), 'slub_wasm.wasm'), dir: 'pkg-fast', wasm: 'slub_wasm_bg.wasm' },
  { crate: 'slub-lab-wasm', profile: SPEED, input: join(wasmOut(SPEED), 'slub_lab_wasm.wasm'), dir: 'pkg-lab', wasm: 'slub_lab_wasm_bg.wasm' },
];

export const wasmInput = CRATES[0].input;
export const pkgDir = join(simDir, 'pkg');
export const pkgWasm = join(pkgDir, 'slub_wasm_bg.wasm');
export const fastPkgDir = join(simDir, 'pkg-fast');
export const fastPkgWasm = join(fastPkgDir, 'slub_wasm_bg.wasm');
export const labPkgDir = join(simDir, 'pkg-lab');
export const labPkgWasm = join(labPkgDir, 'slub_lab_wasm_bg.wasm');
// The reset function re-instantiates a module a panic left in an unknown state.
const BINDGEN_FLAGS = ['--target', 'web', '--remove-name-section', '--remove-producers-section', '--experimental-reset-state-function'];

/** The cargo builds of the wasm crates, one per profile (a no-op each when up to date). */
export function compileWasm() {
  for (const profile of [SIZE, SPEED]) {
    must('build-wasm', 'cargo', [
      'build',
      '--profile',
      profile,
      '--quiet',
      ...CRATES.filter((c) => c.profile === profile).flatMap(({ crate }) => ['-p', crate]),
      // The explorer's export only where its worker loads it (pkg-fast); a separate target
      // directory would rebuild every dependency, so the page's build just leaves the feature off.
      ...(profile === SPEED ? ['--features', 'slub-wasm/explore'] : []),
      '--target',
      'wasm32-unknown-unknown',
    ]);
  }
}

export function buildWasm() {
  compileWasm();
  const version = wasmBindgenVersion();
  for (const { input, dir, wasm, profile } of CRATES) {
    // The stamp holds the CLI's version, the profile and the flags: a change of any
    // regenerates the package.
    const stamped = `${version} ${profile} ${BINDGEN_FLAGS.join(' ')}`;
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

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => a !== '--compile-only');
  if (unknown.length > 0) {
    console.error(`[build-wasm] unknown argument(s): ${unknown.join(' ')}`);
    process.exit(2);
  }
  if (args.includes('--compile-only')) compileWasm();
  else buildWasm();
}
