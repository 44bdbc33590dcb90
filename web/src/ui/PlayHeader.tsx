// The playground's and the explorer's bar: the scenario's name and the sections. A module of its
// own, in the first chunk: the page draws it while the simulator loads (PlayShell), and the
// player draws the same bar once it has (Player.tsx), so the name is on screen from the start.
import type { ReactNode } from 'react';

export interface PlayLinks {
  readonly play: string;
  readonly explore: string;
  readonly compare: string;
}

export function PlayHeader({
  name,
  links,
  exploreOpen,
  onHelp,
  children,
}: {
  name: string;
  links: PlayLinks;
  exploreOpen: boolean;
  /** Opens the shortcuts' dialog; absent while the simulator loads (the button is disabled). */
  onHelp?: () => void;
  /** What the bar shows of the cache (the player's chip), between the name and the sections. */
  children?: ReactNode;
}) {
  return (
    <header className="topbar">
      <h1>
        slub-lab <span className="scenario-name">{name}</span>
      </h1>
      {children}
      <nav aria-label="Sections" className="nav">
        <a href={links.play} aria-current={exploreOpen ? undefined : 'page'}>
          Playground
        </a>
        <a href="#/lessons">Lessons</a>
        <a href={links.explore} aria-current={exploreOpen ? 'page' : undefined}>
          Explorer
        </a>
        <a href="#/lab">Lab</a>
        <a href={links.compare}>6.8 vs 7.0</a>
        <button type="button" className="help-button" onClick={onHelp} disabled={onHelp === undefined} aria-keyshortcuts="?">
          ? Shortcuts
        </button>
      </nav>
    </header>
  );
}

/** What the explorer does, said by its panel (ExplorerPanel.tsx) and while it loads (PlayShell). */
export const EXPLORER_WHAT =
  "Every interleaving of the scenario's tasks and interrupts within the bounds (its scripted moves aside), breadth first: the first broken invariant comes with a shortest schedule that breaks it.";
