// index.html's inline route preload (web/route-preload.ts), run as a browser would run it: for
// each hash, which files it asks for, and nothing for a page that preloads nothing.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { preloadScript } from '../route-preload';
import { inlineScriptsOf } from '../csp';

const ROUTES = {
  home: ['assets/Home.js'],
  lessons: ['assets/LessonsPage.js', 'assets/lessons.css'],
  lesson: ['assets/LessonsPage.js', 'assets/lessons.css', 'assets/LessonReader.js'],
  lab: ['assets/LabPage.js'],
  compare: ['assets/ComparePage.js'],
};
const LESSONS = { 'slab-and-objects': 'assets/slab-and-objects.js' };

/** The links the script adds for `hash`: `rel href` each. */
function linksFor(hash: string): string[] {
  const added: { rel: string; href: string; as?: string }[] = [];
  const document = {
    createElement: () => ({}) as { rel: string; href: string; as?: string },
    head: { appendChild: (l: { rel: string; href: string }) => added.push(l) },
  };
  runInNewContext(preloadScript(ROUTES, LESSONS), { location: { hash }, document });
  return added.map((l) => `${l.rel}${l.as === undefined ? '' : `(${l.as})`} ${l.href}`);
}

describe("index.html's route preload", () => {
  it('asks for the page the hash names, a lesson its own chunk too', () => {
    expect(linksFor('')).toEqual(['modulepreload ./assets/Home.js']);
    expect(linksFor('#/')).toEqual(['modulepreload ./assets/Home.js']);
    expect(linksFor('#/lessons?topic=tid')).toEqual(['modulepreload ./assets/LessonsPage.js', 'preload(style) ./assets/lessons.css']);
    expect(linksFor('#/lessons/glossary/tid')).toHaveLength(2);
    expect(linksFor('#/lessons/slab-and-objects/3')).toEqual([
      'modulepreload ./assets/LessonsPage.js',
      'preload(style) ./assets/lessons.css',
      'modulepreload ./assets/LessonReader.js',
      'modulepreload ./assets/slab-and-objects.js',
    ]);
    // A lesson that does not exist gets the reader (it reports the link), no lesson chunk.
    expect(linksFor('#/lessons/nope/1')).toHaveLength(3);
    expect(linksFor('#/lessons/__proto__/1')).toHaveLength(3);
    expect(linksFor('#/lab')).toEqual(['modulepreload ./assets/LabPage.js']);
    expect(linksFor('#/compare?s=sc01&at=2')).toEqual(['modulepreload ./assets/ComparePage.js']);
  });

  it('asks for nothing for the playground, the explorer or a link it does not know', () => {
    for (const hash of ['#/play?s=sc01', '#/explore', '#/nowhere', '#/labx']) expect(linksFor(hash)).toEqual([]);
  });

  it('is the inline script the Content-Security-Policy hashes', () => {
    const script = preloadScript(ROUTES, LESSONS);
    const html = `<head><script type="module" src="./main.js"></script><script>${script}</script></head>`;
    expect(inlineScriptsOf(html)).toEqual([script]);
  });
});
