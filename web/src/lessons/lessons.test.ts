// Every lesson of lessons/ through the page's loader (library.ts, which runs `slub-lab lesson
// export`: the Rust checker of crate slub-lessons): it must load (file + field in every
// message of a broken one), its prose must come out as safe HTML, and its moves must play in
// the page's own simulator (the wasm bridge). The format's every rule and claim is tested in
// the crate (`cargo test -p slub-lessons`); here, through the binary, as the build sees it.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimError, Simulation } from '../sim/simulator';
import { loadWasmNode, repoRoot } from '../sim/testing';
import { movesThrough, tryItPlayground, withOverrides } from './index';
import { loadLessons } from './library';
import { COURSE_MODULE, LESSON_HEADS_MODULE, LESSON_LOADERS_MODULE, LESSON_MODULE_PREFIX, LESSONS_MODULE, lessonHead, lessonsPlugin } from './vite-plugin';

const FILE = 'lessons/99-sample/lesson.md';

/** A small valid lesson; each broken case below changes one thing in it. */
const GOOD = `---
id: sample
title: A sample
summary: Checks the checker.
topics: [fast-path]
seeds: [004_be3faf7328bf917d.txt]
patches: []
scenario: scenario.json
era: Linux 3.10
crux: The fast path is one compare-and-swap.
takeaways: [One thing., Another thing.]
sources: ["A source."]
exercises:
  - question: Why does T need no lock?
    answer: It owns the CPU's freelist.
  - question: Make U allocate on the fast path.
    check: {from: start, win: {stats: {ALLOC_FASTPATH: 2}, says: Won., example: [T to end, U to end]}}
---

Intro text.

## Step: Setup

\`\`\`step
moves: []
highlights: [cpu0.freelist, code slab_alloc:A9]
expect:
  cpus: {cpu0: {freelist: [p1, p2, p3]}}
\`\`\`

CPU 0 has three free objects.

## Step: Read

\`\`\`step
moves: [T*7]
predict:
  question: What is next?
  choices: [the CAS, a retry]
  answer: {choice: 0, contexts: {T: {at: "slab_alloc:A9"}}}
\`\`\`

T read everything.

## Step: CAS

\`\`\`step
moves: [T]
expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}
\`\`\`

It succeeds.

## Step: Rest

\`\`\`step
moves: [T]
expect: {vars: {x: p1}, violations: []}
\`\`\`

Done.

## Step: Try

\`\`\`step
moves: []
tryIt: {goal: "Run U first.", variant: {cmpxchgDouble: slab-lock}}
\`\`\`

Try it.
`;

const GOOD_SCENARIO = JSON.stringify({
  schemaVersion: 1,
  cpus: 2,
  setup: [{ cpu: 0, op: 'alloc', var: 'a' }],
  tasks: [
    { id: 'T', cpu: 0, ops: [{ op: 'alloc', var: 'x' }] },
    { id: 'U', cpu: 0, ops: [{ op: 'alloc', var: 'u' }] },
  ],
});

const scratch = mkdtempSync(join(tmpdir(), 'slub-lessons-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let folders = 0;

/**
 * A fresh `lessons` folder: lessons/vocabulary.json and each `NN-slug` → lesson.md, with
 * GOOD_SCENARIO as its scenario.json unless `scenarios` gives another (`null`: none).
 */
function lessonsFolder(
  lessons: Record<string, string>,
  scenarios: Record<string, string | null> = {},
): string {
  const dir = join(scratch, String(folders++), 'lessons');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'vocabulary.json'), readFileSync(join(repoRoot, 'lessons', 'vocabulary.json')));
  for (const [name, text] of Object.entries(lessons)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'lesson.md'), text);
    const sc = name in scenarios ? scenarios[name] : GOOD_SCENARIO;
    if (sc !== null && sc !== undefined) writeFileSync(join(dir, name, 'scenario.json'), sc);
  }
  return dir;
}

/** The checker's messages for lesson 99-sample with `text`, or `(accepted)`. */
function errorOf(text: string): string {
  const { errors } = loadLessons(lessonsFolder({ '99-sample': text }));
  return errors.length === 0 ? '(accepted)' : errors.map((e) => e.message).join('\n');
}

/** Lesson 99-sample with `text`, which must hold. */
function sample(text: string, scenario = GOOD_SCENARIO) {
  const { lessons, errors } = loadLessons(lessonsFolder({ '99-sample': text }, { '99-sample': scenario }));
  expect(errors.map((e) => e.message)).toEqual([]);
  const l = lessons[0];
  if (l === undefined) throw new Error('no lesson');
  return l;
}

function replace(from: string, to: string): string {
  expect(GOOD.includes(from), `the case ${JSON.stringify(from)} applies`).toBe(true);
  return GOOD.replace(from, to);
}

describe('the lessons of lessons/', () => {
  const { lessons, errors } = loadLessons(join(repoRoot, 'lessons'));

  it('all parse and validate', () => {
    expect(errors.map((e) => e.message)).toEqual([]);
    const folders = readdirSync(join(repoRoot, 'lessons')).filter((d) =>
      existsSync(join(repoRoot, 'lessons', d, 'lesson.md')),
    );
    expect(lessons.map((l) => l.dir)).toEqual(folders.sort());
    expect(lessons.length).toBeGreaterThanOrEqual(12);
    expect(new Set(lessons.map((l) => l.id)).size).toBe(lessons.length);
    expect(lessons.some((l) => l.dir === '00-sample')).toBe(false);
  });

  it('have what every lesson needs', () => {
    for (const l of lessons) {
      expect(l.steps.length, l.file).toBeGreaterThanOrEqual(5);
      expect(l.steps.length, l.file).toBeLessThanOrEqual(15);
      expect(
        l.steps.some((s) => s.predict !== null),
        `${l.file}: a prediction`,
      ).toBe(true);
      expect(l.steps.at(-1)?.tryIt, `${l.file}: the last step's tryIt`).not.toBeNull();
      for (const s of l.steps) expect(s.narrationHtml.trim(), `${l.file} step ${s.n}`).not.toBe('');
    }
  });

  describe('play in the page simulator', () => {
    beforeAll(loadWasmNode);

    it.each(lessons.map((l) => [l.dir, l] as const))('%s', (_dir, lesson) => {
      const sim = new Simulation(lesson.scenario, { events: false });
      try {
        for (const step of lesson.steps) {
          for (const [i, mv] of step.moves.entries()) {
            try {
              sim.apply(mv);
            } catch (e) {
              if (e instanceof SimError) {
                throw new Error(
                  `${lesson.file}: step ${step.n} ${JSON.stringify(step.title)}: moves: move ${i + 1} (${mv}): ${e.message}`,
                  { cause: e },
                );
              }
              throw e;
            }
          }
          expect(sim.view().position, `${lesson.file} step ${step.n}`).toBe(
            movesThrough(lesson, step.n).length,
          );
          const play = tryItPlayground(lesson, step);
          if (play) {
            const alt = new Simulation(play.scenario, { events: false });
            try {
              for (const mv of play.moves) alt.apply(mv);
            } finally {
              alt.free();
            }
          }
        }
      } finally {
        sim.free();
      }
    });
  });
});

describe('the loader', () => {
  it('accepts the sample lesson', () => {
    const l = sample(GOOD);
    expect(l.front.id).toBe('sample');
    expect(l.steps.map((s) => s.title)).toEqual(['Setup', 'Read', 'CAS', 'Rest', 'Try']);
    expect(l.steps[1]?.moves).toEqual(Array(7).fill('T'));
    expect(l.steps[1]?.movesSource).toEqual(['T*7']);
    expect(l.steps[1]?.predict?.answer).toBe(0);
    expect(l.steps[0]?.highlights).toEqual([
      { name: 'cpu0.freelist', kind: 'cpu', cpu: 0, field: 'freelist' },
      { name: 'code slab_alloc:A9', kind: 'code', label: 'slab_alloc:A9' },
    ]);
    expect(l.steps[4]?.tryIt).toMatchObject({
      from: 'here',
      variant: { cmpxchgDouble: 'slab-lock' },
    });
    expect(l.introHtml).toBe('<p>Intro text.</p>\n');
    expect(l.steps[0]?.narrationHtml).toBe('<p>CPU 0 has three free objects.</p>\n');
  });

  it('gets destination moves resolved into plain moves', () => {
    const l = sample(
      replace('moves: [T*7]', 'moves: [T to slab_alloc:A9]').replace(
        'moves: [T]\nexpect: {vars',
        'moves: [T to end]\nexpect: {vars',
      ),
    );
    expect(l.steps[1]?.moves).toEqual(Array(7).fill('T'));
    expect(l.steps[1]?.movesSource).toEqual(['T to slab_alloc:A9']);
    expect(l.steps[3]?.moves).toEqual(['T']);
    expect(l.steps[3]?.movesSource).toEqual(['T to end']);
  });

  it('merges variant and cache overrides into the scenario', () => {
    const lesson = sample(
      replace('scenario: scenario.json', 'scenario: scenario.json\nvariant: {tidStep: 2}'),
    );
    expect(JSON.parse(lesson.scenario)).toMatchObject({ variant: { tidStep: 2 } });
    const last = lesson.steps.at(-1);
    expect(last && tryItPlayground(lesson, last)).toEqual({
      scenario: withOverrides(lesson.scenario, { cmpxchgDouble: 'slab-lock' }),
      moves: movesThrough(lesson, 5),
    });
    expect(JSON.parse(withOverrides(GOOD_SCENARIO, {}, { pageAllocFail: true }))).toMatchObject({
      cache: { pageAllocFail: true },
    });
  });

  it('reports every broken lesson, each with its file, and gives no lessons then', () => {
    const other = GOOD.replace('id: sample', 'id: other').replace('scenario: scenario.json', 'scenario: missing.json');
    const lib = loadLessons(
      lessonsFolder({ '97-other': other, '98-sample': GOOD, '99-sample': GOOD }),
    );
    expect(lib.lessons).toEqual([]);
    expect(lib.errors.map((e) => e.file)).toEqual(['lessons/97-other/lesson.md', 'lessons/99-sample/lesson.md']);
    expect(lib.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^lessons\/97-other\/lesson.md: front matter: scenario: lessons\/97-other\/missing.json: cannot read: /),
      'lessons/99-sample/lesson.md: front matter: id: "sample" is also the id of lessons/98-sample/lesson.md',
    ]);
  });

  it('refuses a scenario with its own schedule', () => {
    const scenario = JSON.stringify({ ...(JSON.parse(GOOD_SCENARIO) as object), schedule: ['T'] });
    expect(loadLessons(lessonsFolder({ '99-sample': GOOD }, { '99-sample': scenario })).errors.map((e) => e.message)).toEqual([
      "lessons/99-sample/lesson.md: front matter: scenario: scenario.json has a `schedule`; a lesson's steps are its schedule",
    ]);
  });

  it('reports a claim the model does not bear out, with the step and the claim', () => {
    expect(errorOf(replace('{vars: {x: p1}, violations', '{vars: {x: p2}, violations'))).toBe(
      `${FILE}: step 4 "Rest" (line 54): expect.vars.x: the model has p1, the lesson says p2`,
    );
  });

  it('renders narration as safe HTML', () => {
    const hostile = GOOD.replace(
      'CPU 0 has three free objects.',
      'Hi <script>alert(1)</script> <img src=x onerror="alert(1)"> [a](javascript:alert(1)) [b](https://example.org/) `<b>`',
    ).replace(
      'question: What is next?',
      'question: "What <script>x()</script> [c](javascript:x()) is next?"',
    );
    const l = sample(hostile);
    const html = l.steps[0]?.narrationHtml ?? '';
    const question = l.steps[1]?.predict?.questionHtml ?? '';
    for (const h of [html, question]) {
      expect(h).not.toMatch(/<script|<img|javascript:[^<]*"|href="javascript/i);
    }
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('<a href="https://example.org/">b</a>');
    expect(html).toContain('<code>&lt;b&gt;</code>');
  });
});

describe('a broken lesson fails with the file and the field', () => {
  const cases: [string, string, string[]][] = [
    ['id: sample', 'id: Sample', ['front matter: id', 'kebab-case']],
    ['id: sample', 'id: other', ['front matter: id', '99-sample']],
    ['topics: [fast-path]', 'topics: [fastpath]', ['front matter: topics[0]', 'fastpath']],
    [
      'seeds: [004_be3faf7328bf917d.txt]',
      'seeds: [004.txt]',
      ['front matter: seeds[0]', '004.txt'],
    ],
    ['summary: Checks the checker.\n', '', ['front matter', 'missing field `summary`']],
    ['patches: []', 'patches: []\ncolour: red', ['front matter', 'colour']],
    [
      'highlights: [cpu0.freelist, code slab_alloc:A9]',
      'highlights: [cpu0.frelist]',
      ['step 1 "Setup" (line 22): highlights[0]', 'highlight'],
    ],
    [
      'answer: {choice: 0, contexts',
      'answer: {choice: 2, contexts',
      ['step 2 "Read"', 'predict.answer.choice', 'out of range'],
    ],
    [
      'answer: {choice: 0, contexts: {T: {at: "slab_alloc:A9"}}}',
      'answer: {choice: 0}',
      ['step 2 "Read"', 'predict.answer', 'claim'],
    ],
    [
      'expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}',
      'expect: {delta: {CPU_FAILS: 0}}',
      ['step 3 "CAS"', 'expect.delta', 'CPU_FAILS'],
    ],
    [
      'expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}',
      'expect: {stat: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}',
      ['step 3 "CAS"', 'expect', 'unknown field', 'stat'],
    ],
    [
      'expect: {vars: {x: p1}, violations: []}',
      'expect: {vars: {x: p1}, violations: [INV-99]}',
      ['step 4 "Rest"', 'expect.violations[0]', 'INV-1'],
    ],
    ['moves: [T]\nexpect: {vars', 'moves: [T**2]\nexpect: {vars', ['step 4 "Rest"', 'moves[0]']],
    [
      'moves: [T]\nexpect: {vars',
      'moves: [T*0]\nexpect: {vars',
      ['step 4 "Rest"', 'moves[0]', 'repetition'],
    ],
    ['moves: [T]\n', '', ['step 3 "CAS"', 'moves', 'missing']],
    [
      'tryIt: {goal: "Run U first.", variant: {cmpxchgDouble: slab-lock}}',
      '',
      ['step 5 "Try"', 'tryIt'],
    ],
    [
      'tryIt: {goal: "Run U first."',
      'tryIt: {goal: "Run U first.", from: later',
      ['step 5 "Try"', 'tryIt.from'],
    ],
    ['## Step: CAS', '## CAS', ['line', '## Step: <title>']],
    [
      'expect: {delta: {CMPXCHG_DOUBLE_CPU_FAIL: 0}}',
      'expect: {}',
      ['step 3 "CAS"', 'expect', 'claim something'],
    ],
    ['## Step: CAS', '# Step: CAS', ['line', 'no `#` heading']],
    ['\nIt succeeds.\n', '\n', ['step 3 "CAS"', 'narration']],
    ['---\nid: sample', 'id: sample', ['front matter', '---']],
    ['moves: [T]\nexpect: {delta', 'moves: [T\nexpect: {delta', ['step 3 "CAS"', 'did not find expected']],
    [
      '```step\nmoves: [T]\nexpect: {delta',
      'Some text.\n\n```step\nmoves: [T]\nexpect: {delta',
      ['step 3 "CAS"', 'followed by a ```step block'],
    ],
  ];

  it.each(cases)('%j → %j', (from, to, want) => {
    const msg = errorOf(replace(from, to));
    expect(msg).not.toBe('(accepted)');
    expect(msg.startsWith(`${FILE}: `), msg).toBe(true);
    for (const w of want) expect(msg).toContain(w);
  });

  it('needs 5 to 15 steps', () => {
    expect(errorOf(GOOD.split('## Step: Rest')[0] ?? '')).toContain(
      `${FILE}: steps: a lesson has 5 to 15 steps, this one has 3`,
    );
  });

  it('needs a prediction', () => {
    const text = replace(
      'predict:\n  question: What is next?\n  choices: [the CAS, a retry]\n  answer: {choice: 0, contexts: {T: {at: "slab_alloc:A9"}}}\n',
      'expect: {finished: false}\n',
    );
    expect(errorOf(text)).toContain(
      `${FILE}: steps: at least one step needs a \`predict\` question`,
    );
  });
});

describe('SLAB claims (cpus.<cpu>.array, nodes.<node>.freeObjects, shared, …)', () => {
  const SLAB_STEP =
    'expect:\n' +
    '  cpus: {cpu0: {array: {entries: [p0], avail: 1, limit: 4, batchcount: 2, touched: true, handed: 0}}}\n' +
    '  nodes: {node0: {freeObjects: 2, freeLimit: 10, totalSlabs: 1, freeSlabs: 0, slabsFull: [], slabsFree: [], shared: {entries: []}}}\n' +
    '  violations: [SLAB-3]\n';
  const withSlab = (step: string) =>
    replace('expect:\n  cpus: {cpu0: {freelist: [p1, p2, p3]}}\n', step);

  it('are well-formed, and false of a SLUB scenario', () => {
    expect(errorOf(withSlab(SLAB_STEP))).toContain(
      `${FILE}: step 1 "Setup" (line 22): expect.cpus.cpu0.array: this scenario runs SLUB`,
    );
    expect(errorOf(withSlab('expect: {nodes: {node0: {shared: null}}}\n'))).toContain(
      `${FILE}: step 1 "Setup" (line 22): expect.nodes.node0: this scenario runs SLUB`,
    );
  });

  it.each([
    ['entries: [p0], avail: 1', 'entrys: [p0], avail: 1', ['step 1 "Setup"', 'expect.cpus.cpu0.array', 'entrys']],
    ['avail: 1, limit: 4', 'avail: -1, limit: 4', ['expect.cpus.cpu0.array.avail']],
    ['freeObjects: 2', 'freeObjects: two', ['expect.nodes.node0.freeObjects']],
    ['shared: {entries: []}', 'shared: [p0]', ['expect.nodes.node0.shared']],
    ['slabsFull: []', 'slabsFull: P', ['expect.nodes.node0.slabsFull']],
    ['violations: [SLAB-3]', 'violations: [SLAB-8]', ['expect.violations[0]', 'SLAB-1 … SLAB-7']],
  ])('%j → %j is refused', (from, to, want) => {
    expect(SLAB_STEP.includes(from), `the case ${JSON.stringify(from)} applies`).toBe(true);
    const msg = errorOf(withSlab(SLAB_STEP.replace(from, to)));
    expect(msg).not.toBe('(accepted)');
    expect(msg.startsWith(`${FILE}: `), msg).toBe(true);
    for (const w of want) expect(msg).toContain(w);
  });
});

describe('the build plugin (virtual:lessons)', () => {
  /** Resolve and load `virtual:lessons` through the plugin's hooks, as Vite does. */
  function load(lessonsDir: string): { code: string; watched: string[] } {
    const plugin = lessonsPlugin(lessonsDir);
    const resolveHook = plugin.resolveId;
    const loadHook = plugin.load;
    if (typeof resolveHook !== 'function' || typeof loadHook !== 'function') {
      throw new Error('the plugin has no resolveId or load');
    }
    const id = resolveHook.call({} as never, LESSONS_MODULE, undefined, {} as never);
    if (typeof id !== 'string') throw new Error(`${LESSONS_MODULE} did not resolve`);
    const watched: string[] = [];
    const ctx = {
      addWatchFile: (f: string) => watched.push(f),
      error: (e: { message: string }) => {
        throw new Error(e.message);
      },
    };
    const code = loadHook.call(ctx as never, id);
    if (typeof code !== 'string') throw new Error(`${LESSONS_MODULE} did not load`);
    return { code, watched };
  }

  /** The module's default export (`export default JSON.parse("…");`) and its `course`. */
  function exported(code: string): unknown {
    return exports(code).lessons;
  }

  function exports(code: string): { lessons: unknown; course: unknown } {
    const m = /^export default JSON\.parse\((".*")\);\nexport const course = JSON\.parse\((".*")\);\n$/s.exec(code);
    if (!m?.[1] || !m[2]) throw new Error(`unexpected module code: ${code.slice(0, 80)}`);
    return { lessons: JSON.parse(JSON.parse(m[1]) as string), course: JSON.parse(JSON.parse(m[2]) as string) };
  }

  it('gives the page every lesson as JSON, without the claims', () => {
    const dir = join(repoRoot, 'lessons');
    const { code, watched } = load(dir);
    const { lessons, course } = exports(code);
    const library = loadLessons(dir);
    expect(lessons).toEqual(library.lessons);
    expect(course).toEqual(library.course);
    expect(code).not.toMatch(/\\"(expect|whatIf|claims)\\":/);
    // A written exercise's answer key is the instructors': not one of them reaches the page.
    const keys = library.lessons.length;
    expect(keys).toBeGreaterThan(0);
    for (const l of readdirSync(dir).filter((d) => existsSync(join(dir, d, 'lesson.md')))) {
      const text = readFileSync(join(dir, l, 'lesson.md'), 'utf8');
      for (const m of text.matchAll(/^ {4}answer: "(.{40})/gm)) expect(code).not.toContain(m[1]);
    }
    expect(watched).toContain(join(dir, '01-slab-and-objects', 'lesson.md'));
    expect(watched).toContain(join(dir, '01-slab-and-objects', 'scenario.json'));
  });

  it('gives a lesson page the heads and one lesson, not the library', () => {
    const dir = join(repoRoot, 'lessons');
    const plugin = lessonsPlugin(dir);
    const ctx = {
      addWatchFile: () => undefined,
      error: (e: string | { message: string }) => {
        throw new Error(typeof e === 'string' ? e : e.message);
      },
    };
    const loadModule = (name: string): string => {
      const resolveHook = plugin.resolveId;
      const loadHook = plugin.load;
      if (typeof resolveHook !== 'function' || typeof loadHook !== 'function') throw new Error('the plugin has no resolveId or load');
      const id = resolveHook.call({} as never, name, undefined, {} as never);
      if (typeof id !== 'string') throw new Error(`${name} did not resolve`);
      const code = loadHook.call(ctx as never, id);
      if (typeof code !== 'string') throw new Error(`${name} did not load`);
      return code;
    };
    const library = loadLessons(dir);
    const first = library.lessons[0];
    if (first === undefined) throw new Error('no lessons');
    const heads = loadModule(LESSON_HEADS_MODULE);
    // Every lesson's head: its title and step titles, none of its prose; a loader per lesson.
    expect(heads).toBe(`export default JSON.parse(${JSON.stringify(JSON.stringify(library.lessons.map(lessonHead)))});\n`);
    expect(heads).not.toContain('introHtml');
    const loaders = loadModule(LESSON_LOADERS_MODULE);
    for (const l of library.lessons) expect(loaders).toContain(`${JSON.stringify(l.id)}: () => import(${JSON.stringify(LESSON_MODULE_PREFIX + l.id)})`);
    expect(heads.length).toBeLessThan(loadModule(LESSONS_MODULE).length / 10);
    // One lesson, whole; an id that is no lesson is a build error naming it.
    expect(loadModule(LESSON_MODULE_PREFIX + first.id)).toBe(`export default JSON.parse(${JSON.stringify(JSON.stringify(first))});\n`);
    expect(() => loadModule(`${LESSON_MODULE_PREFIX}nope`)).toThrow('virtual:lesson/nope: no such lesson');
    expect(loadModule(COURSE_MODULE)).toBe(`export default JSON.parse(${JSON.stringify(JSON.stringify(library.course))});\n`);
  });

  it('fails on a broken lesson with the file and the field', () => {
    const tmp = mkdtempSync(join(tmpdir(), 'slub-lessons-'));
    try {
      const dir = join(tmp, 'lessons');
      mkdirSync(dir);
      writeFileSync(join(dir, 'vocabulary.json'), readFileSync(join(repoRoot, 'lessons', 'vocabulary.json')));
      const bad = GOOD.replace('id: sample', 'id: bad').replace('[fast-path]', '[fastpath]');
      for (const [name, text] of [
        ['97-bad', bad],
        ['98-sample', GOOD],
        ['99-sample', GOOD],
      ] as const) {
        mkdirSync(join(dir, name), { recursive: true });
        writeFileSync(join(dir, name, 'lesson.md'), text);
        writeFileSync(join(dir, name, 'scenario.json'), GOOD_SCENARIO);
      }
      let message = '(loaded)';
      try {
        load(dir);
      } catch (e) {
        message = e instanceof Error ? e.message : String(e);
      }
      expect(message.split('\n')).toEqual([
        expect.stringMatching(
          /^lessons\/97-bad\/lesson.md: front matter: topics\[0\]: "fastpath" is not in lessons\/vocabulary.json/,
        ),
        'lessons/99-sample/lesson.md: front matter: id: "sample" is also the id of lessons/98-sample/lesson.md',
      ]);
      rmSync(join(dir, '97-bad'), { recursive: true });
      rmSync(join(dir, '99-sample'), { recursive: true });
      expect(exported(load(dir).code)).toMatchObject([{ id: 'sample', dir: '98-sample' }]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('the page', () => {
  /** The modules that load and render lessons: they run in node (build, tests), never in the page. */
  const NODE_ONLY = ['library', 'render', 'vite-plugin', 'course'].map((m) => `lessons/${m}.ts`);
  const PARSERS = /^(markdown-it.*)$|(^|\/)(lessons\/|\.\/)(library|render|vite-plugin|course)(\.js)?$/;

  function sources(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === 'pkg' ? [] : sources(path);
      return /\.tsx?$/.test(e.name) && !/\.(test|d)\.ts$/.test(e.name) ? [path] : [];
    });
  }

  it('imports no parser: the Rust checker and markdown-it run at build time only', () => {
    const src = join(repoRoot, 'web', 'src');
    const found: string[] = [];
    for (const file of sources(src)) {
      const name = relative(src, file).split('\\').join('/');
      if (NODE_ONLY.includes(name)) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+'([^']+)'/gm)) {
        if (PARSERS.test(m[1] ?? '')) found.push(`${name} imports ${m[1] ?? ''}`);
      }
    }
    expect(found).toEqual([]);
  });
});
