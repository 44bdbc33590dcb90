// Vitest global setup: the tests need the wasm package and the native CLI (the determinism test
// compares the two). Both builds are no-ops when up to date. Under `npm test` the CLI is the one
// its `cargo test` stage has just built (scripts/test.mjs sets SLUB_LAB_CLI_BUILT): building it
// again here with `-p slub-lab`, whose features differ from the whole workspace's, would not be
// a no-op but a second compile of serde, slub-sim and everything above them.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

export default function setup(): void {
  run('node', ['scripts/build-wasm.mjs']);
  if (process.env.SLUB_LAB_CLI_BUILT !== '1') run('cargo', ['build', '--release', '--quiet', '-p', 'slub-lab']);
}
