// Vite root is web/; the build goes to <repo>/dist, static assets come from <repo>/public.
import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { cspPlugin } from './csp.js';
import { routePreloadPlugin } from './route-preload.js';
import { lessonsPlugin } from './src/lessons/vite-plugin.js';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * reveal.js (an npm dependency) for the slide deck in public/slides/: served at
 * /slides/reveal/ by the dev server and copied to dist/slides/reveal/ by the build, so the
 * deck works offline from dist/ like the rest of the site.
 */
function revealForSlides(): Plugin {
  const dir = join(repoRoot, 'node_modules', 'reveal.js', 'dist');
  // The notes plugin gives the deck its speaker view (`s`): it opens a window of its own.
  const files: Record<string, string> = { 'reveal.js': 'text/javascript', 'reveal.css': 'text/css', 'plugin/notes.js': 'text/javascript' };
  return {
    name: 'slub-lab:reveal-for-slides',
    configureServer(server) {
      server.middlewares.use('/slides/reveal/', (req, res, next) => {
        const name = (req.url ?? '').replace(/^\//, '').split('?')[0] ?? '';
        const type = files[name];
        if (type === undefined) {
          next();
          return;
        }
        res.setHeader('Content-Type', `${type}; charset=utf-8`);
        res.end(readFileSync(join(dir, name)));
      });
    },
    generateBundle() {
      for (const name of Object.keys(files)) {
        this.emitFile({ type: 'asset', fileName: `slides/reveal/${name}`, source: readFileSync(join(dir, name)) });
      }
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the build works from any path of a static host.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  // The lessons, parsed and validated at build time: `virtual:lessons` (src/lessons/bundled.ts).
  // The route preload writes an inline script that the CSP plugin, after it, allows by its hash.
  plugins: [react(), revealForSlides(), lessonsPlugin(join(repoRoot, 'lessons')), routePreloadPlugin(), cspPlugin()],
  server: {
    // Lessons live outside the Vite root.
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Two pages: the app and the embed (design.md §6).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
      },
    },
  },
});
