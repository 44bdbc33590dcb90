// Every reference in the repository points into the repository (a stage of `npm test`).
//
//   node scripts/check-refs.mjs [--root DIR]
//
// The model and the design are documented in docs/model.md and docs/design.md; code and docs
// cite their sections as "model.md §2.13", "model.md Appendix A", "model.md C.3.10",
// "design.md §5". This check fails on
//  - a pointer outside the repository: `../shared`, `slub-algorithm`, `DESIGN.md`, "DESIGN §n",
//    "spec §n", "spec Appendix …", "spec C.n", "spec INV-n", "spec SCn", "main spec";
//  - an issue of a tracker that is not in the repository ("issue 12", "issue #12", "issues 4,
//    10") and a rule of a style guide that is not either ("STYLE 5"): say what it means;
//  - "Appendix X" or "C.n" in code not introduced by `model.md`;
//  - a section of docs/NAME.md (for any doc: model, design, writing-lessons, …) that the
//    document has no heading for, and in a doc a bare "§n" its own headings do not have;
//  - a scenario id (SC1, SH4, …) that design.md §4.1 does not define, and a golden scenario
//    file (`sc13_…`) that wasm-core/sim/tests/scenarios/ does not hold;
//  - a repository path (`wasm-core/…`, `web/…`, `docs/…`, …) or a Rust file name (`slab.rs`)
//    that is not in the tree;
//  - a count in README.md that the tree contradicts: its lessons (folders of lessons/ with a
//    lesson.md) and the stages of `npm test` (scripts/stages.mjs).
// Prints each offence as `file:line: what`. `--root` checks another tree (the tests' fixtures).
import { readFileSync, existsSync, readdirSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { log, root as repoRoot, run } from './lib.mjs';

const rootArg = process.argv.indexOf('--root');
const root = rootArg >= 0 ? resolve(process.argv[rootArg + 1] ?? '.') : repoRoot;

const TEXT = /\.(rs|ts|tsx|mjs|js|md|json|html|css|toml|ya?ml)$/;
const SKIP = [/^package-lock\.json$/, /^Cargo\.lock$/, /^web\/src\/sim\/pkg/, /(^|\/)node_modules\//, /^scripts\/check-refs(\.test)?\.mjs$/];

/** Section ids a Markdown document has headings for: "§2", "§2.16", "§4 (v)", "Appendix A", "C.3.10". */
function sectionsOf(text) {
  const ids = new Set();
  let chapter = null;
  for (const line of text.split('\n')) {
    const h = /^#{1,4} +(.*)$/.exec(line);
    if (!h) continue;
    const title = h[1];
    let m;
    if ((m = /^(\d+(?:\.\d+)*)\.?(?: |$)/.exec(title))) {
      ids.add(`§${m[1]}`);
      if (!m[1].includes('.')) chapter = m[1];
    } else if ((m = /^Appendix ([A-Z])\b/.exec(title))) {
      ids.add(`Appendix ${m[1]}`);
      chapter = null;
    } else if ((m = /^([A-Z]\.\d+(?:\.\d+)*)\b/.exec(title))) {
      ids.add(m[1]);
    } else if ((m = /^\(([ivx]+)\)/.exec(title)) && chapter) {
      ids.add(`§${chapter} (${m[1]})`);
    }
  }
  return ids;
}

const docs = new Map();
function docSections(name) {
  if (!docs.has(name)) {
    const path = join(root, 'docs', name);
    docs.set(name, existsSync(path) ? sectionsOf(readFileSync(path, 'utf8')) : null);
  }
  return docs.get(name);
}

const designPath = join(root, 'docs', 'design.md');
const design = existsSync(designPath) ? readFileSync(designPath, 'utf8') : '';
const scenarioIds = new Set([...design.matchAll(/^\| (S[CH]\d+) \|/gm)].map((m) => m[1]));

const OUTSIDE = [
  [/\.\.\/shared\b/, 'points to ../shared, outside the repository'],
  [/slub-algorithm/, 'names slub-algorithm.md, not in the repository: cite docs/model.md'],
  [/\bDESIGN(\.md| §)/, 'names DESIGN, not in the repository: cite docs/design.md'],
  [/\bspec(?:ification)?(?:'s)? (?:§|Appendix|[A-Z]\.\d|INV-|SC\d|S\d)/, 'cites "spec": cite docs/model.md (or design.md for scenarios)'],
  [/\bmain spec\b/, 'cites "main spec": cite docs/model.md'],
];

// References to what is not in the repository at all.
const STALE = [
  [/\b[Ii]ssues? #?\d+/, 'cites an issue of a tracker that is not in the repository: say what it means (the kernel function, a doc section, or the reason)'],
  [/\bSTYLE \d+/, 'cites a STYLE rule, not in the repository: cite design.md or say the rule'],
];
// A repository path, and a Rust file's name, as comments and docs write them.
const PATH = /(?<![\w./-])((?:wasm-core|web|docs|scripts|lessons|public|\.ci)\/[\w./-]*\w\.(?:rs|tsx?|mjs|js|md|json|html|css|toml|ya?ml|sh))\b/g;
const RUST_FILE = /(?<![\w./-])([\w-]+\.rs)\b(?!\/)/g;
// Paths that are fine to miss: build outputs, placeholders (`lessons/NN-slug/lesson.md`).
const PATH_OK = [/\/pkg(-\w+)?\//, /^(dist|target)\//, /[A-Z]{2,}/];
// Tests name fixtures they write (`lessons/99-sample/lesson.md`): their paths are not checked.
const FIXTURES = /(\.test\.|(^|\/)tests?\/|tests\.rs$)/;
// A golden scenario file's id (`sc13`, `sc13b`): some file of the scenarios folder starts with it.
const SCENARIO_FILE = /\b(sc\d{2}[a-z]?)(?=_|\b)/g;

// One reference to a section of a doc, and the ones chained after it ("model.md §2.9/§2.10").
const SECTION = String.raw`(?:§\d+(?:\.\d+)*(?: \([ivx]+\))?|Appendix [A-Z]|[A-Z]\.\d+(?:\.\d+)*)`;
const DOC_REF = new RegExp(
  String.raw`\b([a-z][a-z-]*)\.md,? (${SECTION}(?:(?:, | and | or |/|–|-| to )${SECTION})*)`,
  'g',
);
const ONE = new RegExp(SECTION, 'g');

const files = run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { capture: true, cwd: root })
  .stdout.split('\n')
  .filter((f) => f && TEXT.test(f) && !SKIP.some((re) => re.test(f)) && existsSync(join(root, f)));

const tracked = run('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { capture: true, cwd: root })
  .stdout.split('\n')
  .filter(Boolean);
const names = new Set(tracked.map((f) => basename(f)));
const scenariosDir = join(root, 'wasm-core', 'sim', 'tests', 'scenarios');
const scenarioFiles = existsSync(scenariosDir) ? readdirSync(scenariosDir) : [];

const problems = [];
for (const file of files) {
  const text = readFileSync(join(root, file), 'utf8');
  const ownDoc = /^docs\/([^/]+\.md)$/.exec(file)?.[1];
  const report = (line, what) => problems.push(`${file}:${line}: ${what}`);
  text.split('\n').forEach((line, i) => {
    const n = i + 1;
    for (const [re, what] of OUTSIDE) if (re.test(line)) report(n, what);
    for (const [re, what] of STALE) if (re.test(line)) report(n, what);
    for (const m of line.matchAll(SCENARIO_FILE)) {
      if (!scenarioFiles.some((f) => f.startsWith(`${m[1]}_`)))
        report(n, `no golden scenario ${m[1]}_… in wasm-core/sim/tests/scenarios/`);
    }
    if (!FIXTURES.test(file)) {
      for (const m of line.matchAll(PATH)) {
        if (!PATH_OK.some((re) => re.test(m[1])) && !existsSync(join(root, m[1]))) report(n, `no file ${m[1]}`);
      }
    }
    for (const m of line.matchAll(RUST_FILE)) {
      if (!names.has(m[1])) report(n, `no file named ${m[1]} in the repository`);
    }
    // Cited sections of a doc must exist in it.
    const covered = [];
    for (const m of line.matchAll(DOC_REF)) {
      const sections = docSections(`${m[1]}.md`);
      covered.push([m.index, m.index + m[0].length]);
      if (sections === null) continue; // not a doc of ours (e.g. README.md §…): nothing to check
      for (const s of m[2].match(ONE)) {
        if (!sections.has(s)) report(n, `docs/${m[1]}.md has no section ${s}`);
      }
    }
    const inChain = (at) => covered.some(([a, b]) => at >= a && at < b);
    // A doc's bare "§n" is its own section.
    if (ownDoc) {
      const own = docSections(ownDoc);
      for (const m of line.matchAll(new RegExp(SECTION, 'g'))) {
        if (inChain(m.index) || !m[0].startsWith('§')) continue;
        if (!own.has(m[0])) report(n, `${ownDoc} has no section ${m[0]} (a section of another doc? name it)`);
      }
    } else {
      for (const m of line.matchAll(/\bAppendix [A-Z]\b|(?<![\w.])C\.\d+(?:\.\d+)*\b/g)) {
        if (inChain(m.index)) continue;
        report(n, `"${m[0]}" without its document: write "model.md ${m[0]}"`);
      }
      // A bare "§n" continues a reference made earlier in the comment: it must at least be a
      // section of model.md or design.md.
      for (const m of line.matchAll(new RegExp(SECTION, 'g'))) {
        if (inChain(m.index) || !m[0].startsWith('§')) continue;
        if (!docSections('model.md').has(m[0]) && !docSections('design.md').has(m[0]))
          report(n, `neither docs/model.md nor docs/design.md has a section ${m[0]}`);
      }
    }
    for (const m of line.matchAll(/\bS([CH])(\d{1,2})\b/g)) {
      if (!scenarioIds.has(`S${m[1]}${m[2]}`)) report(n, `scenario S${m[1]}${m[2]} is not defined in docs/design.md §4.1`);
    }
  });
}

// The counts README.md states must be the tree's.
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty'];
const NUMBER = String.raw`\d+|${NUMBER_WORDS.join('|')}`;
const valueOf = (text) => (/^\d+$/.test(text) ? Number(text) : NUMBER_WORDS.indexOf(text.toLowerCase()));
const lessonsDir = join(root, 'lessons');
const counts = [
  // A lesson is a folder of lessons/ with a lesson.md (as `slub-lab lesson check` finds them).
  ['lessons', existsSync(lessonsDir) ? readdirSync(lessonsDir).filter((d) => existsSync(join(lessonsDir, d, 'lesson.md'))).length : null],
  ['stages', existsSync(join(root, 'scripts', 'stages.mjs')) ? (await import(pathToFileURL(join(root, 'scripts', 'stages.mjs')).href)).STAGES.length : null],
];
const readmePath = join(root, 'README.md');
if (existsSync(readmePath)) {
  readFileSync(readmePath, 'utf8').split('\n').forEach((line, i) => {
    for (const [noun, actual] of counts) {
      if (actual === null) continue;
      // "19 lessons", "fifteen narrated step-through lessons", "12 stages".
      const re = new RegExp(String.raw`\b(${NUMBER})\s+(?:[\w-]+\s+){0,2}${noun}\b`, 'gi');
      for (const m of line.matchAll(re)) {
        if (valueOf(m[1]) !== actual) problems.push(`README.md:${i + 1}: says ${m[1]} ${noun}; the tree has ${actual}`);
      }
    }
  });
}

if (problems.length > 0) {
  for (const p of problems) console.error(p);
  console.error(`[refs] ${problems.length} reference(s) point outside the repository or to a missing section`);
  process.exit(1);
}
log('refs', `${files.length} files: every reference points into the repository (${scenarioIds.size} scenario ids)`);
