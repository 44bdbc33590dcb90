// docs/architecture.md walks the code file by file and function by function; this test holds it
// to the code. Every hop is written `path/to/file.rs` → `name` (the page's "Notation" says so):
// the file must exist and define the name (a Rust `fn`; a TypeScript `function`, `const`, class
// method or React component; or a type), and the type of a `Type::name` / `Type.name` must be
// defined there too. A failure reads `docs/architecture.md:LINE: what is missing`.
//
// The last tests show on a copy (a temp dir with the doc and the files it names) that renaming
// one function a hop names, or removing a file, fails the check.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const DOC = 'docs/architecture.md';

const SOURCE = String.raw`[^\x60\s]+\.(?:rs|tsx?|mjs|js)`;
/** A hop: a source file's code span, an arrow, the name's code span. */
const HOP = new RegExp(String.raw`\x60(${SOURCE})\x60 → \x60([^\x60]*)\x60`, 'g');
/** What starts a hop, readable or not (to catch a hop the check would skip). */
const HOP_START = new RegExp(String.raw`\x60${SOURCE}\x60 →`, 'g');
/** `name`, `Type::name` (Rust) or `Type.name` (TypeScript). */
const NAME = /^(?:([A-Za-z_$][\w$]*)(::|\.))?([A-Za-z_$][\w$]*)$/;

const esc = (s) => s.replace(/[$]/g, '\\$&');

/** Whether `source` (a file of language `rust` or not) defines the function or type `name`. */
function defines(source, name, rust) {
  const n = esc(name);
  const forms = rust
    ? [
        String.raw`\bfn\s+${n}\s*[<(]`,
        String.raw`\b(?:struct|enum|trait|type|union)\s+${n}\b`,
      ]
    : [
        String.raw`\bfunction\s*\*?\s*${n}\s*[<(]`,
        String.raw`\b(?:const|let|var)\s+${n}\s*(?::[^=\n]+)?=`,
        // A class or object method: `name(…) {`, `#name<T>(…): T {`, `static async name(…) {`.
        String.raw`^[ \t]*(?:(?:public|private|protected|static|async|override|get|set)\s+)*#?${n}\s*(?:<[^>\n]*>)?\((?:[^()]|\([^()]*\))*\)\s*(?::[^{;=\n]+)?\{`,
        String.raw`\b(?:class|interface|type|enum)\s+${n}\b`,
      ];
  return forms.some((f) => new RegExp(f, 'm').test(source));
}

/** Whether `source` defines the type `type` (or, in Rust, has an `impl` of it). */
function definesType(source, type, rust) {
  const t = esc(type);
  const forms = rust
    ? [
        String.raw`\b(?:struct|enum|trait|type|union)\s+${t}\b`,
        String.raw`\bimpl(?:<[^>]*>)?\s+(?:[\w:]+(?:<[^>]*>)?\s+for\s+)?${t}\b`,
      ]
    : [String.raw`\b(?:class|interface|type|enum)\s+${t}\b`];
  return forms.some((f) => new RegExp(f).test(source));
}

/**
 * In Rust, the types a `fn name` of `source` belongs to: for each definition, the `impl` or
 * `trait` block it sits in (the nearest such line before it, at any indent: macros hold some):
 * `impl Type`, `impl Trait for Type` (both count) or `trait Trait`.
 */
function rustOwners(source, name) {
  const owners = new Set();
  const lines = source.split('\n');
  const fn = new RegExp(String.raw`\bfn\s+${esc(name)}\s*[<(]`);
  const block = /^\s*(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(impl|trait)\b(?:<[^>]*>)?\s*(.*)$/;
  lines.forEach((line, i) => {
    if (!fn.test(line)) return;
    for (let j = i; j >= 0; j--) {
      const b = block.exec(lines[j]);
      if (b === null) continue;
      const words = b[2].replace(/<[^>]*>/g, '').split(/[\s{]+/).filter(Boolean);
      if (b[1] === 'trait') owners.add(words[0]);
      else {
        const at = words.indexOf('for');
        if (at > 0) owners.add(words[0].split('::').pop()).add(words[at + 1]);
        else owners.add(words[0]);
      }
      return;
    }
  });
  return owners;
}

/** The hops of the doc: [{ line, file, type, name }], and the lines that start a hop badly. */
function readHops(text) {
  const hops = [];
  const problems = [];
  text.split('\n').forEach((line, i) => {
    const n = i + 1;
    const found = [...line.matchAll(HOP)];
    const starts = [...line.matchAll(HOP_START)].length;
    for (const m of found) {
      const name = NAME.exec(m[2]);
      if (name === null) problems.push(`${DOC}:${n}: \`${m[2]}\` is not a name (write \`name\`, \`Type::name\` or \`Type.name\`)`);
      else hops.push({ line: n, file: m[1], type: name[1] ?? null, name: name[3] });
    }
    if (starts > found.length) problems.push(`${DOC}:${n}: a hop that is not \`file\` → \`name\``);
  });
  return { hops, problems };
}

/** Check the doc of the tree at `root`: its hops and every problem, as `doc:line: what`. */
function check(root) {
  const { hops, problems } = readHops(readFileSync(join(root, DOC), 'utf8'));
  for (const h of hops) {
    const path = join(root, h.file);
    if (!existsSync(path)) {
      problems.push(`${DOC}:${h.line}: no file ${h.file}`);
      continue;
    }
    const source = readFileSync(path, 'utf8');
    const rust = h.file.endsWith('.rs');
    if (!defines(source, h.name, rust)) problems.push(`${DOC}:${h.line}: ${h.file} defines no ${h.name}`);
    if (h.type !== null && !definesType(source, h.type, rust)) {
      problems.push(`${DOC}:${h.line}: ${h.file} defines no type ${h.type} (for ${h.type}${rust ? '::' : '.'}${h.name})`);
    } else if (h.type !== null && rust && defines(source, h.name, rust) && !rustOwners(source, h.name).has(h.type)) {
      const owners = [...rustOwners(source, h.name)].join(', ') || 'no impl';
      problems.push(`${DOC}:${h.line}: in ${h.file}, ${h.name} is a method of ${owners}, not of ${h.type}`);
    }
  }
  // In the doc's order (a line's unreadable hops were found before any file was read).
  const lineOf = (p) => Number(/^[^:]+:(\d+):/.exec(p)?.[1]);
  problems.sort((x, y) => lineOf(x) - lineOf(y));
  return { hops, problems };
}

/** A tree of `files` ({path: text}) in a temp dir, given to `f`, removed after. */
function withTree(files, f) {
  const dir = mkdtempSync(join(tmpdir(), 'architecture-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return f(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('every file and function docs/architecture.md names exists', () => {
  const { hops, problems } = check(repoRoot);
  assert.deepEqual(problems, []);
  // Both walks are there: from the command line to the model, and from the page to the SVG.
  assert.ok(hops.length >= 50, `only ${hops.length} hops`);
  const files = new Set(hops.map((h) => h.file));
  for (const end of ['wasm-core/cli/src/main.rs', 'wasm-core/sim/src/model/slub/invariants.rs', 'web/src/ui/useShortcuts.ts', 'web/src/render/stage.view.ts']) {
    assert.ok(files.has(end), `no hop in ${end}`);
  }
});

test('each way of defining a name is found, and a missing one is reported with its line', () => {
  const doc = [
    '# Fixture',
    '1. `src/a.rs` → `run`: a Rust fn.',
    '2. `src/a.rs` → `Machine::step`: a method of an impl.',
    '3. `src/a.rs` → `Driver::apply`: a trait method.',
    '4. `web/b.ts` → `plain`, `web/b.ts` → `arrow`, `web/b.ts` → `Sim.scene`, `web/b.ts` → `Sim.call`.',
    '5. `web/c.tsx` → `Player`: a React component; `web/c.tsx` → `Props`: a type.',
    '6. `src/a.rs` → `gone`, `src/a.rs` → `Other::step`, `web/b.ts` → `missing`, `web/none.ts` → `x`.',
    '7. `src/a.rs` → `run()`: not a name; `web/b.ts` →  `plain`: not a hop.',
    'Prose may name `src/a.rs` and `run` apart.',
  ].join('\n');
  const files = {
    [DOC]: doc,
    'src/a.rs': 'pub struct Machine;\nimpl Machine {\n    pub(super) fn step<T>(&mut self) {}\n}\npub trait Driver { fn apply(&mut self); }\nfn run(path: &Path) {}\n',
    'web/b.ts': [
      'export function plain(): void {}',
      'export const arrow = (x: number) => x;',
      'export class Sim {',
      '  #call<T>(f: () => T): T {',
      '    return f();',
      '  }',
      '  scene(schedule: readonly string[] | undefined, cursor: number): Scene {',
      '    missing(1);',
      '  }',
      '}',
    ].join('\n'),
    'web/c.tsx': 'interface Props { a: number }\nexport function Player({ a }: Props) {\n  return <p>{a}</p>;\n}\n',
  };
  const { problems } = withTree(files, check);
  assert.deepEqual(problems, [
    `${DOC}:7: src/a.rs defines no gone`,
    `${DOC}:7: src/a.rs defines no type Other (for Other::step)`,
    `${DOC}:7: web/b.ts defines no missing`,
    `${DOC}:7: no file web/none.ts`,
    `${DOC}:8: \`run()\` is not a name (write \`name\`, \`Type::name\` or \`Type.name\`)`,
    `${DOC}:8: a hop that is not \`file\` → \`name\``,
  ]);
});

/** The doc and every file it names, copied into a temp dir; `edit(dir, hops)` changes the copy. */
function onCopy(edit) {
  const { hops } = check(repoRoot);
  const dir = mkdtempSync(join(tmpdir(), 'architecture-copy-'));
  try {
    for (const path of new Set([DOC, ...hops.map((h) => h.file)])) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      cpSync(join(repoRoot, path), join(dir, path));
    }
    const before = check(dir).problems;
    edit(dir, hops);
    return { before, after: check(dir).problems };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Rename every use of `name` in `file` of the copy, as a refactoring would. */
function rename(dir, file, name) {
  const path = join(dir, file);
  const renamed = readFileSync(path, 'utf8').replace(new RegExp(String.raw`\b${esc(name)}\b`, 'g'), `${name}_renamed`);
  writeFileSync(path, renamed);
}

test('on a copy, renaming a Rust function a hop names fails the check at that hop', () => {
  let hop;
  const { before, after } = onCopy((dir, hops) => {
    hop = hops.find((h) => h.file.endsWith('.rs') && h.type !== null);
    rename(dir, hop.file, hop.name);
  });
  assert.deepEqual(before, []);
  assert.ok(after.includes(`${DOC}:${hop.line}: ${hop.file} defines no ${hop.name}`), after.join('\n'));
});

test('on a copy, renaming a TypeScript function a hop names fails the check at that hop', () => {
  let hop;
  const { after } = onCopy((dir, hops) => {
    hop = hops.find((h) => /\.tsx?$/.test(h.file) && h.type === null);
    rename(dir, hop.file, hop.name);
  });
  assert.ok(after.includes(`${DOC}:${hop.line}: ${hop.file} defines no ${hop.name}`), after.join('\n'));
});

test('on a copy, a file a hop names that is gone fails the check', () => {
  let hop;
  const { after } = onCopy((dir, hops) => {
    hop = hops.at(-1);
    rmSync(join(dir, hop.file));
  });
  assert.ok(after.includes(`${DOC}:${hop.line}: no file ${hop.file}`), after.join('\n'));
});
