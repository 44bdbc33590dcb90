// The site's bar: the name (a link to the front page) and the sections. On the lesson pages,
// the front page and every error page.
import type { ReactNode } from 'react';

export function SiteHeader({ current, children }: { current: 'home' | 'index' | 'reader' | 'compare' | 'error'; children?: ReactNode }) {
  return (
    <header className="topbar site-bar">
      <p className="brand">
        <a href="#/" aria-current={current === 'home' ? 'page' : undefined}>
          slub-lab
        </a>
      </p>
      <nav aria-label="Sections" className="nav">
        <a href="#/play">Playground</a>
        <a href="#/lessons" aria-current={current === 'index' ? 'page' : undefined}>
          Lessons
        </a>
        <a href="#/explore">Explorer</a>
        <a href="#/lab">Lab</a>
        <a href="#/compare" aria-current={current === 'compare' ? 'page' : undefined}>
          6.8 vs 7.0
        </a>
        {children}
      </nav>
    </header>
  );
}
