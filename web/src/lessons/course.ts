// The course pages around the lessons, built in node with them (vite-plugin.ts): the glossary
// (`lessons/course/glossary.json`) and the invariants (`lessons/course/invariants.json`), each
// entry checked (its lesson exists, its fields are there) and its Markdown rendered to safe HTML.
// The lessons' narration links each glossary term the first time a lesson uses it
// (library.ts, through `termLinker`).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CourseGlossaryEntry, CourseInvariant, CoursePages } from './index.js';
import { renderInline, type TermLinker } from './render.js';

interface RawTerm {
  term: string;
  words: string[];
  lesson: string;
  definition: string;
}

interface RawInvariant {
  id: string;
  family: 'slub' | 'slab' | 'v7';
  statement: string;
  broken: string;
}

/** A glossary term's slug, its part of `#/lessons/glossary/<slug>`. */
export function termSlug(term: string): string {
  return term
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch (e) {
    throw new Error(`${file}: ${(e as Error).message}`, { cause: e });
  }
}

function text(where: string, v: unknown): string {
  if (typeof v !== 'string' || v.trim() === '') throw new Error(`${where}: must be non-empty text`);
  return v;
}

/** The raw glossary terms of `lessonsDir/course/glossary.json`, checked against the lesson ids. */
export function readGlossary(lessonsDir: string, lessonIds: ReadonlySet<string>): RawTerm[] {
  const file = join(lessonsDir, 'course', 'glossary.json');
  // A lessons folder without course pages (a test's) has no glossary.
  if (!existsSync(file)) return [];
  const j = readJson(file) as { terms?: unknown };
  if (!Array.isArray(j.terms)) throw new Error(`${file}: terms: must be a list`);
  const seen = new Set<string>();
  return j.terms.map((t: unknown, i: number) => {
    const at = `${file}: terms[${i}]`;
    const r = t as Partial<RawTerm>;
    const term = text(`${at}.term`, r.term);
    if (seen.has(termSlug(term))) throw new Error(`${at}.term: "${term}" is listed twice`);
    seen.add(termSlug(term));
    const lesson = text(`${at}.lesson`, r.lesson);
    if (!lessonIds.has(lesson)) throw new Error(`${at}.lesson: no lesson has the id "${lesson}"`);
    if (!Array.isArray(r.words) || r.words.length === 0) throw new Error(`${at}.words: list the words that link to it`);
    return { term, lesson, words: r.words.map((w, k) => text(`${at}.words[${k}]`, w)), definition: text(`${at}.definition`, r.definition) };
  });
}

/** The ids of `lessonsDir/course/invariants.json` (none without the file). */
export function readInvariantIds(lessonsDir: string): string[] {
  const file = join(lessonsDir, 'course', 'invariants.json');
  if (!existsSync(file)) return [];
  const j = readJson(file) as { invariants?: { id?: unknown }[] };
  return (j.invariants ?? []).map((v) => v.id).filter((id): id is string => typeof id === 'string');
}

/**
 * The links a lesson's prose gets: each glossary term and each invariant id (`INV-12`) once per
 * lesson, the first time it is used.
 */
export function termLinker(terms: readonly RawTerm[], invariants: readonly string[] = []): TermLinker {
  return {
    terms: [
      ...terms.map((t) => ({ href: `#/lessons/glossary/${termSlug(t.term)}`, words: t.words, title: t.term })),
      ...invariants.map((id) => ({ href: `#/lessons/invariants/${id}`, words: [id], title: id })),
    ],
    linked: new Set(),
  };
}

/** The glossary and the invariants as the page gets them. */
export function loadCourse(lessonsDir: string, lessonIds: ReadonlySet<string>): CoursePages {
  const glossary: CourseGlossaryEntry[] = readGlossary(lessonsDir, lessonIds).map((t) => ({
    term: t.term,
    slug: termSlug(t.term),
    lesson: t.lesson,
    definitionHtml: renderInline(t.definition),
  }));
  glossary.sort((a, b) => a.term.localeCompare(b.term, 'en', { sensitivity: 'base' }));
  const file = join(lessonsDir, 'course', 'invariants.json');
  if (!existsSync(file)) return { glossary, invariants: [] };
  const j = readJson(file) as { invariants?: unknown };
  if (!Array.isArray(j.invariants)) throw new Error(`${file}: invariants: must be a list`);
  const invariants: CourseInvariant[] = j.invariants.map((v: unknown, i: number) => {
    const at = `${file}: invariants[${i}]`;
    const r = v as Partial<RawInvariant>;
    if (r.family !== 'slub' && r.family !== 'slab' && r.family !== 'v7') throw new Error(`${at}.family: one of slub, slab, v7`);
    const broken = text(`${at}.broken`, r.broken);
    for (const m of broken.matchAll(/#\/lessons\/([a-z0-9-]+)/g)) {
      if (!lessonIds.has(m[1] ?? '')) throw new Error(`${at}.broken: links to lesson "${m[1] ?? ''}", which does not exist`);
    }
    return {
      id: text(`${at}.id`, r.id),
      family: r.family,
      statementHtml: renderInline(text(`${at}.statement`, r.statement)),
      brokenHtml: renderInline(broken),
    };
  });
  return { glossary, invariants };
}
