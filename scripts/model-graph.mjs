// The import graph of the model (wasm-core/sim/src/model/), measured as docs/architecture.md
// ("Inside the model: its import graph") defines it, so that a restructuring can say what it changed:
//
//   node scripts/model-graph.mjs          the counts, the loops and the arrows that run back up
//   node scripts/model-graph.mjs --json   the same as JSON, with the paths that draw each arrow
//
// A node is a file of model/, except that each folder (slub/, slab/, sheaves/, slab_page/,
// core/, locals/) is one node. Test modules (`#[cfg(test)] mod …`) are left out: nothing names them, so they
// cannot close a loop of the code that ships. An arrow runs from a node to each other node whose items one of its files names:
// in a `use` (its tree expanded), or in a path in the code (`super::cost::Id`,
// `crate::model::prims::found`). A name is followed to the module that defines it, through the
// `use`s that re-export it (a child may name its parent's imports), so `use super::Block` in
// slub/ is an arrow to core/, where mod.rs imports `Block` from. A glob (`use super::state::*`) is an arrow to the module it names.
//
// A loop is a set of two or more nodes each of which reaches every other along arrows (a
// strongly connected component). Arrows back up: the fewest arrows that must point up in any
// order of the nodes on levels, every other arrow pointing down (a minimum feedback arc set,
// found exactly for each loop by dynamic programming over its subsets). Arrows between two
// loops, or out of a loop, can always point down.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The text of a Rust file without its comments and the contents of its strings. */
function code(text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\/\/[^\n]*/g, '');
}

/** The modules of model/: path (`['model', 'slub', 'alloc']`) → its file, its text, its children. */
function loadModules(modelDir) {
  /** module path joined by :: → { file, text, children: Set } */
  const modules = new Map();
  /** module path joined by :: → the names of its children compiled only for tests */
  const testOnly = new Map();
  function add(path, file, text = code(readFileSync(file, 'utf8'))) {
    // An inline module (`pub mod labels { … }`) is a module of its own, in its file's node: its
    // `use super::*` names the file's module, not the file's parent. A test module
    // (`#[cfg(test)] mod tests { … }` or `#[cfg(test)] mod faults;`) is left out: nothing
    // names it, so it cannot close a loop, and it may use the whole machine.
    const own = [];
    const tests = new Set();
    let rest = text;
    for (let m; (m = /(#\[cfg\(test\)\]\s*)?(?:pub(?:\([^)]*\))?\s+)?\bmod\s+(\w+)\s*\{/.exec(rest)); ) {
      const open = m.index + m[0].length;
      let depth = 1;
      let i = open;
      for (; i < rest.length && depth; i++) depth += rest[i] === '{' ? 1 : rest[i] === '}' ? -1 : 0;
      if (!m[1]) own.push([m[2], rest.slice(open, i - 1)]);
      rest = rest.slice(0, m.index) + rest.slice(i);
    }
    for (const m of rest.matchAll(/#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/g)) tests.add(m[1]);
    testOnly.set(path.join('::'), tests);
    modules.set(path.join('::'), { path, file, text: rest, children: new Set(own.map(([name]) => name)) });
    for (const [name, body] of own) add([...path, name], file, body);
  }
  function walk(dir, path) {
    add(path, join(dir, 'mod.rs'));
    for (const name of readdirSync(dir).sort()) {
      const full = join(dir, name);
      if (testOnly.get(path.join('::')).has(name.replace(/\.rs$/, ''))) continue;
      if (statSync(full).isDirectory()) {
        if (existsSync(join(full, 'mod.rs'))) {
          modules.get(path.join('::')).children.add(name);
          walk(full, [...path, name]);
        }
      } else if (name.endsWith('.rs') && name !== 'mod.rs') {
        const m = name.slice(0, -3);
        modules.get(path.join('::')).children.add(m);
        add([...path, m], full);
      }
    }
  }
  walk(modelDir, ['model']);
  return modules;
}

/** The `use` trees of a file's text, each expanded to its leaves: { segs, alias, glob }. */
function uses(text) {
  const out = [];
  for (const m of text.matchAll(/\buse\s+([^;]+);/g)) {
    const tree = m[1].replace(/\s+as\s+/g, '@').replace(/\s+/g, '');
    expand(tree, [], out);
  }
  return out;
}

function expand(tree, prefix, out) {
  // Split `a::b::{c, d::{e}}` at its first top-level brace.
  const brace = tree.indexOf('{');
  if (brace < 0) {
    const [path, alias] = tree.split('@');
    const segs = [...prefix, ...path.split('::').filter(Boolean)];
    if (segs[segs.length - 1] === '*') out.push({ segs: segs.slice(0, -1), glob: true });
    else out.push({ segs, alias: alias || segs[segs.length - 1], glob: false });
    return;
  }
  const head = tree.slice(0, brace).split('::').filter(Boolean);
  const inner = tree.slice(brace + 1, tree.lastIndexOf('}'));
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= inner.length; i++) {
    const ch = inner[i];
    if (ch === '{') depth++;
    if (ch === '}') depth--;
    if ((ch === ',' && depth === 0) || i === inner.length) {
      const part = inner.slice(start, i);
      if (part) {
        if (part === 'self') out.push({ segs: [...prefix, ...head], alias: head[head.length - 1], glob: false });
        else expand(part, [...prefix, ...head], out);
      }
      start = i + 1;
    }
  }
}

const DEFINES = (name) =>
  new RegExp(String.raw`\b(?:fn|struct|enum|trait|type|union|const|static|macro_rules!)\s+${name}\b|\bmacro_rules!\s*${name}\b`);

/**
 * Measure the graph of the model under `modelDir`.
 * @returns {{ nodes: string[], arrows: [string, string][], loops: string[][], backUp: [string, string][], why: Record<string, string[]> }}
 */
export function measure(modelDir = join(repoRoot, 'wasm-core', 'sim', 'src', 'model')) {
  const modules = loadModules(modelDir);
  // A module's node: the top module of its path under model/, a folder's as one node.
  const folders = new Set(readdirSync(modelDir).filter((name) => existsSync(join(modelDir, name, 'mod.rs'))));
  const nodeOf = (path) => (path.length === 1 ? 'mod.rs' : folders.has(path[1]) ? `${path[1]}/` : `${path[1]}.rs`);
  const usesOf = new Map([...modules.values()].map((m) => [m.path.join('::'), uses(m.text)]));

  /** The module a path names, if it is one. */
  const moduleAt = (path) => modules.get(path.join('::'));

  /** The node that defines what `segs` names, seen from module `at`; null if outside the model. */
  function resolve(at, segs, seen = new Set()) {
    if (!segs.length) return nodeOf(at);
    const [first, ...rest] = segs;
    if (!/^\w+$/.test(first)) return null;
    if (first === 'crate') return rest[0] === 'model' ? resolve(['model'], rest.slice(1), seen) : null;
    if (first === 'super') return at.length > 1 ? resolve(at.slice(0, -1), rest, seen) : null;
    if (first === 'self') return resolve(at, rest, seen);
    const mod = moduleAt(at);
    if (!mod) return null;
    if (mod.children.has(first)) return resolve([...at, first], rest, seen);
    const key = `${at.join('::')}#${first}`;
    if (seen.has(key)) return null;
    seen.add(key);
    if (DEFINES(first).test(mod.text)) return nodeOf(at);
    for (const u of usesOf.get(at.join('::'))) {
      if (!u.glob && u.alias === first) return resolve(at, [...u.segs, ...rest], seen);
    }
    for (const u of usesOf.get(at.join('::'))) {
      if (u.glob) {
        const found = resolve(at, [...u.segs, first, ...rest], seen);
        if (found) return found;
      }
    }
    return null; // std, another crate, or a name this reading does not find
  }

  /** `from to` → the paths that draw the arrow (`why`). */
  const names = new Map();
  for (const mod of modules.values()) {
    const from = nodeOf(mod.path);
    const targets = [];
    for (const u of usesOf.get(mod.path.join('::'))) {
      const start = u.segs[0];
      if (!['crate', 'super', 'self'].includes(start) && !moduleAt(mod.path)?.children.has(start)) continue; // std, other crates
      targets.push([u.glob ? resolveModule(mod.path, u.segs) : resolve(mod.path, u.segs), u.segs.join('::') + (u.glob ? '::*' : '')]);
    }
    for (const m of mod.text.matchAll(/(?<![\w:])((?:crate::model|super(?:::super)*)(?:::\w+)+)/g)) {
      if (/\buse\s+[^;]*$/.test(mod.text.slice(Math.max(0, m.index - 200), m.index))) continue; // inside a use
      targets.push([resolve(mod.path, m[1].split('::')), m[1]]);
    }
    for (const [to, name] of targets) {
      if (!to || to === from) continue;
      const key = `${from} ${to}`;
      if (!names.has(key)) names.set(key, new Set());
      names.get(key).add(name);
    }
  }

  /** The node of the module a glob names. */
  function resolveModule(at, segs) {
    let path = at;
    for (const s of segs) {
      if (s === 'crate') path = [];
      else if (s === 'model' && path.length === 0) path = ['model'];
      else if (s === 'super') path = path.slice(0, -1);
      else if (s !== 'self') path = [...path, s];
    }
    return path[0] === 'model' && moduleAt(path) ? nodeOf(path) : null;
  }

  const nodes = [...new Set([...modules.values()].map((m) => nodeOf(m.path)))].sort();
  const edges = [...names.keys()].map((a) => a.split(' ')).sort();
  const loops = stronglyConnected(nodes, edges).filter((c) => c.length > 1);
  const backUp = loops.flatMap((loop) => fewestUp(loop, edges));
  const why = Object.fromEntries([...names].map(([k, v]) => [k.replace(' ', ' → '), [...v].sort()]));
  return { nodes, arrows: edges, loops, backUp, why };
}

/** Tarjan's strongly connected components. */
function stronglyConnected(nodes, edges) {
  const next = new Map(nodes.map((n) => [n, []]));
  for (const [a, b] of edges) next.get(a).push(b);
  let index = 0;
  const idx = new Map();
  const low = new Map();
  const stack = [];
  const on = new Set();
  const out = [];
  function visit(v) {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next.get(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const c = [];
      let w;
      do {
        w = stack.pop();
        on.delete(w);
        c.push(w);
      } while (w !== v);
      out.push(c.sort());
    }
  }
  for (const n of nodes) if (!idx.has(n)) visit(n);
  return out;
}

/**
 * The fewest arrows of a loop that must point up: lay the loop's nodes from the ground up; a
 * node laid on top of a set S makes every arrow from S into it point up. best[S] is the least
 * such count over the orders of S (dynamic programming over subsets, exact).
 */
function fewestUp(loop, edges) {
  const n = loop.length;
  if (n > 22) throw new Error(`a loop of ${n} nodes is too large to order exactly`);
  const at = new Map(loop.map((v, i) => [v, i]));
  const into = new Array(n).fill(0); // into[v]: the loop's nodes (a bit set) that import v
  const inLoop = edges.filter(([a, b]) => at.has(a) && at.has(b));
  for (const [a, b] of inLoop) into[at.get(b)] |= 1 << at.get(a);
  const popcount = (x) => {
    let c = 0;
    for (; x; x &= x - 1) c++;
    return c;
  };
  const full = (1 << n) - 1;
  const best = new Int32Array(1 << n).fill(1 << 30);
  const last = new Int8Array(1 << n).fill(-1);
  best[0] = 0;
  for (let s = 0; s < full; s++) {
    if (best[s] === 1 << 30) continue;
    for (let v = 0; v < n; v++) {
      if (s & (1 << v)) continue;
      const t = s | (1 << v);
      const cost = best[s] + popcount(into[v] & s);
      if (cost < best[t]) {
        best[t] = cost;
        last[t] = v;
      }
    }
  }
  // The order that reaches the least, from the top down; then the arrows it points up.
  const level = new Map();
  for (let s = full, k = n; s; k--) {
    const v = last[s];
    level.set(loop[v], k);
    s &= ~(1 << v);
  }
  return inLoop.filter(([a, b]) => level.get(b) > level.get(a));
}

/** The one line docs/architecture.md states. */
export function summary(g) {
  const loops = g.loops.length ? ` of ${g.loops.map((l) => l.length).join(', ')} nodes` : '';
  return `model/: ${g.nodes.length} nodes, ${g.arrows.length} arrows, ${g.loops.length} loop(s)${loops}, ${g.backUp.length} arrow(s) back up`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const g = measure();
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(g, null, 2));
  } else {
    console.log(summary(g));
    for (const l of g.loops) console.log(`loop: ${l.join(' ')}`);
    for (const [a, b] of g.backUp) console.log(`back up: ${a} → ${b}  (${g.why[`${a} → ${b}`].join(', ')})`);
    console.log(`(${relative(process.cwd(), join(repoRoot, 'wasm-core', 'sim', 'src', 'model')) || '.'}; docs/architecture.md says how it is counted)`);
  }
}
