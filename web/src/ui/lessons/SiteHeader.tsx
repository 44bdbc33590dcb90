// The site's bar on the lesson pages: the name and the sections (as the playground has them).
import type { ReactNode } from 'react';

export function SiteHeader({ current, children }: { current: 'index' | 'reader'; children?: ReactNode }) {
  return (
    <header className="topbar site-bar">
      <p className="brand">
        <a href="#/lessons">slub-lab</a>
      </p>
      <nav aria-label="Sections" className="nav">
        <a href="#/play">Playground</a>
        <a href="#/lessons" aria-current={current === 'index' ? 'page' : undefined}>
          Lessons
        </a>
        <a href="#/explore">Explorer</a>
        <a href="#/lab">Lab</a>
        {children}
      </nav>
    </header>
  );
}
