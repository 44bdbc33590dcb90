// Vite root is web/; the build goes to <repo>/dist, static assets come from <repo>/public.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  // Relative asset URLs: the build works from any path of a static host.
  base: './',
  publicDir: fileURLToPath(new URL('../public', import.meta.url)),
  plugins: [react()],
  server: {
    // Lessons live outside the Vite root.
    fs: { allow: [repoRoot] },
  },
  build: {
    outDir: fileURLToPath(new URL('../dist', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // Two pages: the app and the embed (DESIGN §6).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        embed: fileURLToPath(new URL('./embed.html', import.meta.url)),
      },
    },
  },
});
