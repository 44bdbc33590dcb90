// `#/lab` (design.md §1 "Lab"): the seeds' own benchmarks rerun on the model under the one
// cost table, each comparison beside the seed's published numbers. The page draws its words at
// once; what needs the lab's wasm module (the cases, the runs, the cost table) comes with the
// LabResults chunk, asked for once those words are painted. The cases run one at a time in Web
// Workers (sim/lab-runner.ts) and each card fills in as its result comes back.
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

/**
 * How to read a chart and the summary: words only, drawn with the page rather than after the
 * lab's wasm module (Lighthouse's phone: the largest paint, this paragraph, waited on that module).
 * The tolerance's number is in the summary's column head and each chart's description.
 */
function Legend() {
  return (
    <p className="legend small">
      <strong>Reading a chart:</strong> each bar is a change from before to after (after ÷ before − 1). The top bar is the
      seed’s published change, the one below is the model’s. Left of the zero line the change costs less after; right of
      it, it costs more. On the model’s row, the shaded band is the seed’s ratio give or take the lab’s tolerance (the
      summary’s ± column) and the dashed mark is the seed’s change. In the summary, <strong>size</strong> is the model’s
      change divided by the seed’s: between ½ and 2 it counts as the seed’s effect; <strong>asserted</strong> says which
      verdicts the lab’s tests hold the model to. The verdicts are also written out in words beside each chart.
    </p>
  );
}

export function LabPage() {
  // After the page's words are painted: the chunk brings d3 and the lab's wasm module (320 KB
  // gzip), which on a phone's link held the words' paint back by the time they take to arrive.
  const results = useChunk(loadResults, { afterPaint: true });
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
          <Legend />
          {m !== null && <m.CostTable />}
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
