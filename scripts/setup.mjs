// Everything `npm start` and `npm test` need, installed once and checked quickly afterwards.
// Plain Node with no npm dependencies: it runs before `npm install`.
//
//   node scripts/setup.mjs [--browser] [--no-wasm] [--no-cli]
//
//   1. the wasm32-unknown-unknown Rust target (rustup);
//   2. the wasm-bindgen CLI at exactly the version of the wasm-bindgen crate in Cargo.lock, under
//      .tools/wasm-bindgen-<version>/ (cargo install; a few minutes the first time);
//   3. node_modules (`npm ci`) when missing or older than package-lock.json;
//   4. with --browser: /usr/bin/chromium for the end-to-end tests (apt-get; we run as root);
//   5. the wasm builds into web/src/sim/pkg, pkg-fast and pkg-lab (scripts/build-wasm.mjs),
//      unless --no-wasm; their cargo builds start first, in the background, and run while 2.-4.
//      do: on a fresh clone the crates' fat-LTO links keep one core of two busy for most of a
//      minute, the CLI's install and `npm ci` use the other;
//   6. the `slub-lab` binary (target/release/slub-lab), whose `lesson export` gives the page its
//      lessons at build time (web/src/lessons/vite-plugin.ts) and the tests theirs (cargo
//      build --release; quick when it is up to date), unless --no-cli: `npm test` passes it
//      because its `cargo test` stage builds that binary before any stage uses it, with the
//      features the whole workspace and its dev-dependencies turn on (serde's `alloc`, syn's
//      `visit`, bitflags' `std`, ...): a build here, with fewer, would compile serde, slub-sim
//      and everything above them a second time.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildWasm } from './build-wasm.mjs';
import {
  isMain,
  log,
  mtime,
  must,
  root,
  run,
  wasmBindgenBin,
  wasmBindgenRoot,
  wasmBindgenVersion,
} from './lib.mjs';

const WASM_TARGET = 'wasm32-unknown-unknown';
export const CHROMIUM = '/usr/bin/chromium';

function ensureWasmTarget() {
  // Run in the repository so rust-toolchain.toml picks the toolchain.
  const { ok, stdout } = run('rustup', ['target', 'list', '--installed'], { capture: true });
  if (!ok) {
    console.error('[setup] rustup is required (https://rustup.rs)');
    process.exit(1);
  }
  if (stdout.split('\n').includes(WASM_TARGET)) return;
  log('setup', `adding the ${WASM_TARGET} target`);
  must('setup', 'rustup', ['target', 'add', WASM_TARGET]);
}

function ensureWasmBindgen() {
  const version = wasmBindgenVersion();
  const bin = wasmBindgenBin(version);
  if (existsSync(bin)) {
    const { ok, stdout } = run(bin, ['--version'], { capture: true });
    if (ok && stdout.trim().split(/\s+/)[1] === version) return;
  }
  log('setup', `installing wasm-bindgen-cli ${version} into .tools/ (a minute or two, once)`);
  // No --locked: the registry mirror lacks some of the CLI's locked transitive versions.
  // Only the `wasm-bindgen` binary (not the test runner or wasm2es6js), no TLS (the default
  // `rustls-tls` feature serves the test runner's downloads; ring and its C code are not built)
  // and unoptimised (--debug): 248 → 108 CPU seconds to build on a fresh clone, for 0.3 s more
  // per generated package, whose files come out byte for byte the same.
  must('setup', 'cargo', [
    'install',
    'wasm-bindgen-cli',
    '--version',
    version,
    '--root',
    wasmBindgenRoot(version),
    '--no-default-features',
    '--bin',
    'wasm-bindgen',
    '--debug',
  ]);
}

function ensureNodeModules() {
  const lock = join(root, 'package-lock.json');
  // npm keeps a copy of the lockfile it installed from in node_modules/.package-lock.json.
  const installed = join(root, 'node_modules', '.package-lock.json');
  const pkg = join(root, 'package.json');
  if (existsSync(lock) && mtime(installed) >= mtime(lock) && mtime(installed) >= mtime(pkg)) return;
  if (existsSync(lock) && mtime(lock) >= mtime(pkg)) {
    log('setup', 'npm ci');
    must('setup', 'npm', ['ci', '--no-audit', '--no-fund']);
  } else {
    log('setup', 'npm install');
    must('setup', 'npm', ['install', '--no-audit', '--no-fund']);
  }
}

function ensureChromium() {
  if (existsSync(CHROMIUM)) return;
  log('setup', `installing chromium (${CHROMIUM}) for the end-to-end tests`);
  must('setup', 'apt-get', ['update']);
  must('setup', 'apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
    env: { DEBIAN_FRONTEND: 'noninteractive' },
  });
}

function ensureSlubLab() {
  log('setup', 'cargo build --release -p slub-lab (the lessons\' checker and exporter)');
  must('setup', 'cargo', ['build', '--release', '-p', 'slub-lab']);
}

/**
 * `node scripts/build-wasm.mjs --compile-only` in a child process of its own (it runs its two
 * cargo builds one after the other without this process's event loop, which the synchronous
 * steps meanwhile block): resolves to whether it succeeded.
 */
function compileWasmInBackground() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts', 'build-wasm.mjs'), '--compile-only'], { cwd: root, stdio: 'inherit' });
    // A step that fails exits this process: the build must not run on after it.
    process.on('exit', () => child.exitCode === null && child.kill());
    child.on('error', () => resolve(false));
    child.on('exit', (code) => resolve(code === 0));
  });
}

export async function setup({ browser = false, wasm = true, cli = true } = {}) {
  ensureWasmTarget();
  const compiled = wasm ? compileWasmInBackground() : Promise.resolve(true);
  ensureWasmBindgen();
  ensureNodeModules();
  if (browser) ensureChromium();
  if (!(await compiled)) {
    console.error('[setup] failed: node scripts/build-wasm.mjs --compile-only');
    process.exit(1);
  }
  // The cargo builds are up to date now: this generates the packages with wasm-bindgen.
  if (wasm) buildWasm();
  if (cli) ensureSlubLab();
}

if (isMain(import.meta.url)) {
  const args = process.argv.slice(2);
  const unknown = args.filter((a) => !['--browser', '--no-wasm', '--no-cli'].includes(a));
  if (unknown.length > 0) {
    console.error(`[setup] unknown argument(s): ${unknown.join(' ')}`);
    process.exit(2);
  }
  const started = Date.now();
  await setup({ browser: args.includes('--browser'), wasm: !args.includes('--no-wasm'), cli: !args.includes('--no-cli') });
  log('setup', `ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
