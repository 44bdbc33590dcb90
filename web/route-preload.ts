// Each page's code fetched from the first moment (`vite build` only). The app is one HTML page
// whose route is its hash: main.tsx asks for the page's chunk once the entry's own code (React,
// the app shell: 64 KB gzip) has arrived and run, a whole extra round trip on a phone link. This
// plugin writes a small inline script into index.html that reads the hash and adds
// `<link rel="modulepreload">` for that page's chunks at once, beside the entry's own. The
// script's SHA-256 joins the page's Content-Security-Policy (csp.ts hashes every inline script).
//
// A route's chunks are those of its page module and everything they import statically, found
// in the bundle: the build names the files. The playground preloads nothing: it draws its bar
// from the entry alone (PlayShell) and its wasm would only slow that down.
import type { OutputBundle, OutputChunk } from 'rolldown';
import type { Plugin } from 'vite';

/** The page modules each route draws first (paths from web/src), as main.tsx and App.tsx load them. */
const ROUTES: Readonly<Record<string, readonly string[]>> = {
  home: ['ui/Home.tsx'],
  lessons: ['ui/lessons/LessonsPage.tsx'],
  lesson: ['ui/lessons/LessonsPage.tsx', 'ui/lessons/LessonReader.tsx'],
  // The Lab's words only: its model (LabResults, d3 and a 320 KB gzip wasm module) is asked for
  // once they are painted (LabPage.tsx), not beside the page's own code on a phone's link.
  lab: ['ui/lab/LabPage.tsx'],
  compare: ['ui/compare/ComparePage.tsx'],
};

/** A lesson's own chunk: the module `virtual:lesson/<id>` (src/lessons/vite-plugin.ts). */
const LESSON_MODULE = /^\0virtual:lesson\/(.+)$/;

function chunks(bundle: OutputBundle): OutputChunk[] {
  return Object.values(bundle).filter((f): f is OutputChunk => f.type === 'chunk');
}

/** `file` and every chunk it imports statically, and their CSS, minus what `skip` holds. */
function closure(bundle: OutputBundle, file: string, skip: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    const chunk = bundle[f];
    if (chunk?.type !== 'chunk') return;
    for (const i of chunk.imports) visit(i);
    if (!skip.has(f)) out.push(f);
    for (const css of chunk.viteMetadata?.importedCss ?? []) if (!skip.has(css)) out.push(css);
  };
  visit(file);
  return [...new Set(out)];
}

/** The inline script: `routes` by kind, `lessons` by id; the hash picks them. */
export function preloadScript(routes: Record<string, string[]>, lessons: Record<string, string>): string {
  return `(function () {
  var routes = ${JSON.stringify(routes)};
  var lessons = ${JSON.stringify(lessons)};
  var path = location.hash.replace(/^#/, '').split('?')[0];
  var m = /^\\/lessons\\/([^/]+)/.exec(path);
  var files =
    path === '' || path === '/' ? routes.home
    : m && m[1] !== 'glossary' && m[1] !== 'invariants' ? routes.lesson.concat(Object.prototype.hasOwnProperty.call(lessons, m[1]) ? [lessons[m[1]]] : [])
    : /^\\/lessons\\/?/.test(path) ? routes.lessons
    : /^\\/lab\\/?$/.test(path) ? routes.lab
    : /^\\/compare\\/?$/.test(path) ? routes.compare
    : [];
  for (var i = 0; i < files.length; i++) {
    var link = document.createElement('link');
    var css = /\\.css$/.test(files[i]);
    link.rel = css ? 'preload' : 'modulepreload';
    if (css) link.as = 'style';
    link.crossOrigin = '';
    link.href = './' + files[i];
    document.head.appendChild(link);
  }
})();`;
}

export function routePreloadPlugin(): Plugin {
  return {
    name: 'slub-lab:route-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const { bundle, chunk: entry } = ctx;
        if (bundle === undefined || entry === undefined || !entry.facadeModuleId?.endsWith('/index.html')) return undefined;
        // What the entry already preloads (index.html's own modulepreload links and CSS).
        const skip = new Set(closure(bundle, entry.fileName, new Set()));
        const byModule = (suffix: string) => chunks(bundle).find((c) => c.facadeModuleId?.endsWith(`/src/${suffix}`));
        const routes: Record<string, string[]> = {};
        for (const [route, modules] of Object.entries(ROUTES)) {
          const files = modules.flatMap((m) => {
            const c = byModule(m);
            if (c === undefined) throw new Error(`route-preload: no chunk for src/${m} (moved? update ROUTES)`);
            return closure(bundle, c.fileName, skip);
          });
          routes[route] = [...new Set(files)];
        }
        const lessons: Record<string, string> = {};
        for (const c of chunks(bundle)) {
          const id = LESSON_MODULE.exec(c.facadeModuleId ?? '')?.[1];
          if (id !== undefined) lessons[id] = c.fileName;
        }
        // Before the entry's script and stylesheet: an inline script after a stylesheet would
        // wait for it. (Not first in <head>: the charset must stay in its first 1,024 bytes.)
        const at = html.indexOf('<script type="module"');
        if (at < 0) throw new Error('route-preload: index.html has no module script');
        return `${html.slice(0, at)}<script>${preloadScript(routes, lessons)}</script>\n    ${html.slice(at)}`;
      },
    },
  };
}
