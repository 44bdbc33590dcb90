// `#/lab` (design.md §1 "Lab"): the seeds' own benchmarks rerun on the model under the one
// cost table, each comparison beside the seed's published numbers. The page draws its words at
// once; what needs the lab's wasm module (the cases, the runs, the cost table) comes with the
// LabResults chunk. The cases run one at a time in Web Workers (sim/lab-runner.ts) and each
// card fills in as its result comes back.
import { startTransition, useCallback, useEffect, useState } from 'react';
import { HelpDialog } from '../HelpDialog';
import { useChunk } from '../useChunk';
import { useShortcuts } from '../useShortcuts';
import './lab.css';

const loadResults = () => import('./LabResults');

/** The lab's keys: none of its own (its cards are buttons and links, reached with Tab). */
const LAB_KEYS = [{ keyText: '?', help: 'Show or hide this list' }];

function LabHeader({ onHelp }: { onHelp: () => void }) {
  return (
    <header className="topbar lab-bar">
      <p className="brand">
        <a href="#/">slub-lab</a>
      </p>
      <nav aria-label="Sections" className="nav">
        <a href="#/play">Playground</a>
        <a href="#/lessons">Lessons</a>
        <a href="#/explore">Explorer</a>
        <a href="#/lab" aria-current="page">
          Lab
        </a>
        <a href="#/compare">6.8 vs 7.0</a>
        <button type="button" className="help-button" onClick={onHelp} aria-keyshortcuts="?">
          ? Shortcuts
        </button>
      </nav>
    </header>
  );
}

export function LabPage() {
  const results = useChunk(loadResults);
  const m = results.kind === 'ready' ? results.module : null;
  // The seventeen cards come in a transition, after the summary: React renders them in slices
  // that leave the page free to answer (a phone's main thread was blocked for 200 ms by them).
  const [cardsOn, setCardsOn] = useState(false);
  useEffect(() => {
    if (m !== null) startTransition(() => setCardsOn(true));
  }, [m]);
  const [helpOpen, setHelpOpen] = useState(false);
  useShortcuts(
    useCallback((name) => {
      if (name === 'help') setHelpOpen((o) => !o);
    }, []),
  );
  useEffect(() => {
    document.title = 'Lab · slub-lab';
    return () => {
      document.title = 'slub-lab';
    };
  }, []);

  return (
    <main className="page lab" aria-labelledby="lab-title">
      <LabHeader onHelp={() => setHelpOpen(true)} />
      <h1 id="lab-title">The seeds’ benchmarks, rerun on the model</h1>
      <div className="lab-top">
        <section className="lab-intro" aria-label="How the lab works">
          <p className="lead">
            Each comparison reruns a measurement from one of the five <strong>seeds</strong> (the kernel texts this project
            grew from) on the model, and sets the model&apos;s <strong>after ÷ before</strong> beside the seed&apos;s.
          </p>
          <ul className="lab-points">
            <li>
              <strong>Two runs each:</strong> one workload, <em>before</em> and <em>after</em> a patch (a variant of the model).
            </li>
            <li>
              <strong>One cost table</strong> charges every run; no constant is tuned to make one match.
            </li>
            <li>
              <strong>Ratios, not cycles,</strong> are compared, with three verdicts: the <strong>sign</strong> (does the
              change go the seed&apos;s way?), the <strong>size</strong> (between half and twice the seed&apos;s?) and the{' '}
              <strong>band</strong> (the model&apos;s ratio within the band the legend below gives?).
            </li>
          </ul>
          <details className="lab-why">
            <summary>Why the model&apos;s cycles are not the seeds&apos;</summary>
            <p>
              The seeds ran on IA64 and x86 machines (a Core i7, Xeons), and their cycles include the call, mispredicted
              branches and the benchmark loop; the model charges every load its full latency, one after another, where a
              real core overlaps some of them.
            </p>
            <p>
              Around the allocator the lab adds what the seeds&apos; machines and benchmarks did: the page allocator&apos;s
              zone lock and per-CPU page lists, kmalloc&apos;s size lookup and the free&apos;s reads of the object&apos;s
              page, a store buffer, spinlocks handed to their waiters in turn, slab_test&apos;s wait between its
              allocations and its frees, and a warm-up where the seed ran far longer than the model can. Each card lists
              the ones its comparison used.
            </p>
          </details>
          {m !== null && (
            <>
              <m.CostTable />
              <m.Legend />
            </>
          )}
        </section>
        {m !== null ? (
          <m.Summary />
        ) : results.kind === 'failed' ? (
          <p className="error" role="alert">
            The lab&apos;s model could not be loaded: {results.message}
          </p>
        ) : (
          <p className="loading" role="status">
            Loading the lab&apos;s model…
          </p>
        )}
      </div>
      {m !== null && cardsOn && <m.Cases />}
      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} keys={LAB_KEYS} />
    </main>
  );
}
