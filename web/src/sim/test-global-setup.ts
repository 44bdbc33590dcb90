// Vitest global setup: the tests need the wasm package and the native CLI (the determinism test
// compares the two). Both builds are no-ops when up to date.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

function run(cmd: string, args: string[]): void {
  const result = spawnSync(cmd, args, { cwd: repoRoot, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed`);
}

export default function setup(): void {
  run('node', ['scripts/build-wasm.mjs']);
  run('cargo', ['build', '--release', '--quiet', '-p', 'slub-lab']);
}
