// Parse one lesson file: YAML front matter, then `## Step: <title>` headings, each followed by a
// fenced `step` YAML block and Markdown narration. markdown-it tokenizes (its front-matter
// plugin finds the front matter), `yaml` reads the YAML, zod (schema.ts) validates it. Every
// error names the file and the field, as wasm-core/sim/tests/lessons.rs does for the same file.
// This runs at build time (vite-plugin.ts, through library.ts) and in the tests: markdown-it,
// yaml and zod never reach the page, which receives the parsed lessons as JSON.
//
// Narration is rendered to HTML by markdown-it with raw HTML disabled: any `<tag>` in a lesson
// comes out escaped, and links with `javascript:`, `vbscript:`, `file:` or non-image `data:`
// URLs are not turned into links. The HTML needs no further sanitising.
import MarkdownIt from 'markdown-it';
import frontMatterPlugin from 'markdown-it-front-matter';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import type { ZodType } from 'zod';
import {
  expandMoves,
  formatPath,
  FrontMatter,
  MAX_STEPS,
  MIN_STEPS,
  type Predict,
  StepBlock,
  type Claims,
  type TryIt,
  type WhatIf,
} from './schema.js';
import type { LessonPredict, LessonStep, LessonTryIt } from './index.js';

/** A lesson that fails validation: `file: field: message` (one line per problem). */
export class LessonError extends Error {
  readonly file: string;
  readonly problems: readonly { field: string; message: string }[];

  constructor(file: string, problems: readonly { field: string; message: string }[]) {
    super(problems.map((p) => `${file}: ${p.field}: ${p.message}`).join('\n'));
    this.name = 'LessonError';
    this.file = file;
    this.problems = problems;
  }
}

/** A prediction with the claims the model checks after the step (the Rust test asserts them). */
export interface ParsedPredict extends LessonPredict {
  claims: Omit<Predict['answer'], 'choice'>;
}

/** A step with its claims: what the tests see; the page gets a LessonStep (library.ts). */
export interface ParsedStep extends Omit<LessonStep, 'predict'> {
  predict: ParsedPredict | null;
  expect: Claims | null;
  whatIf: WhatIf[];
}

/** A parsed lesson file, before its scenario is attached. */
export interface LessonSource {
  file: string;
  /** `NN-slug`. */
  dir: string;
  /** The `NN` of the folder. */
  number: number;
  front: FrontMatter;
  introHtml: string;
  steps: ParsedStep[];
}

const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
// The plugin's callback is for side effects; the front matter is read from its token instead.
// Its typings import `markdown-it/lib`, which markdown-it 15 no longer exports, so the import is
// typed any; the plugin itself works with 15 (lessons.test.ts runs it).
// eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- see above
md.use(frontMatterPlugin, () => undefined);

export function renderMarkdown(src: string): string {
  return md.render(src);
}

export function renderInline(src: string): string {
  return md.renderInline(src);
}

type Problem = { field: string; message: string };

type Checked<T> = { ok: true; value: T } | { ok: false; problems: Problem[] };

/** Parse YAML then validate it; problems name `where: path`. */
function validated<T>(
  schema: ZodType<T>,
  text: string,
  where: string,
  lineOffset: number,
): Checked<T> {
  let data: unknown;
  try {
    data = parseYaml(text, { prettyErrors: true, uniqueKeys: true }) as unknown;
  } catch (e) {
    if (e instanceof YAMLParseError) {
      const line = (e.linePos?.[0].line ?? 0) + lineOffset;
      const first = e.message.split('\n')[0] ?? '';
      return {
        ok: false,
        problems: [{ field: where, message: `YAML error at line ${line}: ${first}` }],
      };
    }
    throw e;
  }
  const r = schema.safeParse(data ?? {});
  if (r.success) return { ok: true, value: r.data };
  const problems = r.error.issues.map((issue) => {
    const path = formatPath(issue.path);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys')
      message = `unknown field(s) ${issue.keys.map((k) => `\`${k}\``).join(', ')}`;
    if (issue.code === 'invalid_type' && issue.input === undefined) message = 'missing';
    return { field: path === '' ? where : `${where}: ${path}`, message };
  });
  return { ok: false, problems };
}

/**
 * Parse lesson `file` (`lessons/NN-slug/lesson.md`), whose folder is `dir` (`NN-slug`).
 * Throws LessonError naming the file and the field of every problem found.
 */
export function parseLesson(file: string, dir: string, text: string): LessonSource {
  function fail(problems: Problem[]): never {
    throw new LessonError(file, problems);
  }
  const tokens = md.parse(text, {});
  const lines = text.split('\n');
  const slice = (from: number, to: number) => lines.slice(from, to).join('\n').trim();

  const fmToken = tokens[0];
  if (fmToken?.type !== 'front_matter') {
    fail([{ field: 'front matter', message: 'the file must start with a `---` YAML block' }]);
  }
  const meta: unknown = fmToken.meta;
  const checkedFront = validated(
    FrontMatter,
    typeof meta === 'string' ? meta : '',
    'front matter',
    1,
  );
  if (!checkedFront.ok) fail(checkedFront.problems);
  const front = checkedFront.value;

  interface Raw {
    title: string;
    line: number;
    block: { text: string; line: number } | null;
    from: number;
    to: number;
  }
  const raws: Raw[] = [];
  const introFrom = fmToken.map?.[1] ?? 0;
  let introTo = lines.length;
  let wantBlock = false;
  const here = (r: Raw, n: number) => `step ${n} ${JSON.stringify(r.title)} (line ${r.line})`;

  for (let i = 1; i < tokens.length; i++) {
    const t = tokens[i];
    if (t === undefined) continue;
    const isBlockStart = t.level === 0 && t.block && t.nesting >= 0 && t.type !== 'inline';
    if (t.type === 'heading_open') {
      const line = (t.map?.[0] ?? 0) + 1;
      if (wantBlock) {
        const r = raws[raws.length - 1] as Raw;
        fail([
          {
            field: here(r, raws.length),
            message: 'the heading must be followed by a ```step block',
          },
        ]);
      }
      if (t.tag === 'h1')
        fail([
          {
            field: `line ${line}`,
            message: 'no `#` heading in the body (the title is in the front matter)',
          },
        ]);
      if (t.tag !== 'h2') continue;
      const title = tokens[i + 1]?.content ?? '';
      const m = /^Step:\s*(.*)$/.exec(title);
      if (!m)
        fail([
          {
            field: `line ${line}`,
            message: `a \`##\` heading must be \`## Step: <title>\`, found ${JSON.stringify(title)}`,
          },
        ]);
      const stepTitle = (m[1] ?? '').trim();
      if (stepTitle === '') fail([{ field: `line ${line}`, message: 'a step needs a title' }]);
      const start = t.map?.[0] ?? 0;
      const prev = raws[raws.length - 1];
      if (prev) prev.to = start;
      else introTo = start;
      raws.push({
        title: stepTitle,
        line,
        block: null,
        from: t.map?.[1] ?? start + 1,
        to: lines.length,
      });
      wantBlock = true;
      i += 2; // inline, heading_close
      continue;
    }
    if (t.type === 'fence' && t.info.trim().split(/\s+/)[0] === 'step') {
      const line = (t.map?.[0] ?? 0) + 1;
      const r = raws[raws.length - 1];
      if (!r)
        fail([
          { field: `line ${line}`, message: 'a ```step block before the first `## Step:` heading' },
        ]);
      if (!wantBlock)
        fail([
          { field: here(r, raws.length), message: `a second \`\`\`step block at line ${line}` },
        ]);
      r.block = { text: t.content, line: line + 1 };
      r.from = t.map?.[1] ?? r.from;
      wantBlock = false;
      continue;
    }
    if (isBlockStart && wantBlock) {
      const r = raws[raws.length - 1] as Raw;
      fail([
        { field: here(r, raws.length), message: 'the heading must be followed by a ```step block' },
      ]);
    }
  }
  if (wantBlock) {
    const r = raws[raws.length - 1] as Raw;
    fail([
      { field: here(r, raws.length), message: 'the heading must be followed by a ```step block' },
    ]);
  }

  const problems: Problem[] = [];
  const m = /^(\d\d)-(.+)$/.exec(dir);
  if (m?.[2] !== front.id) {
    problems.push({
      field: 'front matter: id',
      message: `${JSON.stringify(front.id)} must be the folder name ${JSON.stringify(dir)} without its \`NN-\` prefix`,
    });
  }
  if (raws.length < MIN_STEPS || raws.length > MAX_STEPS) {
    problems.push({
      field: 'steps',
      message: `a lesson has ${MIN_STEPS} to ${MAX_STEPS} steps, this one has ${raws.length}`,
    });
  }

  const steps: ParsedStep[] = [];
  raws.forEach((r, k) => {
    const where = here(r, k + 1);
    const checked = validated(StepBlock, r.block?.text ?? '', where, (r.block?.line ?? 1) - 1);
    if (!checked.ok) {
      problems.push(...checked.problems);
      return;
    }
    const block = checked.value;
    const narration = slice(r.from, r.to);
    if (narration === '')
      problems.push({
        field: `${where}: narration`,
        message: 'every step needs narration after its ```step block',
      });
    const p = block.predict;
    steps.push({
      n: k + 1,
      title: r.title,
      line: r.line,
      moves: expandMoves(block.moves),
      movesSource: block.moves,
      highlights: block.highlights,
      predict: p ? predictOf(p) : null,
      expect: block.expect ?? null,
      whatIf: block.whatIf,
      tryIt: block.tryIt ? tryItOf(block.tryIt) : null,
      narrationHtml: renderMarkdown(narration),
    });
  });
  if (problems.length === 0) {
    if (!steps.some((s) => s.predict))
      problems.push({ field: 'steps', message: 'at least one step needs a `predict` question' });
    const last = steps[steps.length - 1];
    if (last && !last.tryIt) {
      problems.push({
        field: `step ${last.n} ${JSON.stringify(last.title)} (line ${last.line}): tryIt`,
        message: 'the last step must say what to try in the playground',
      });
    }
  }
  if (problems.length > 0) fail(problems);

  return {
    file,
    dir,
    number: Number(m?.[1] ?? 0),
    front,
    introHtml: renderMarkdown(slice(introFrom, introTo)),
    steps,
  };
}

function predictOf(p: Predict): ParsedPredict {
  const { choice, ...claims } = p.answer;
  return {
    question: p.question,
    questionHtml: renderInline(p.question),
    choices: p.choices,
    choicesHtml: p.choices.map(renderInline),
    answer: choice,
    explainHtml: p.explain === undefined ? null : renderInline(p.explain),
    claims,
  };
}

function tryItOf(t: TryIt): LessonTryIt {
  return {
    goal: t.goal,
    goalHtml: renderInline(t.goal),
    from: t.from,
    variant: t.variant ?? {},
    cache: t.cache ?? {},
  };
}
