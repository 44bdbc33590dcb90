// `#/lab` (design.md §1 "Lab"): the seeds' own benchmarks rerun on the model under the one
// cost table, each comparison beside the seed's published numbers. The page draws its words at
// once; what needs the lab's wasm module (the cases, the runs, the cost table) comes with the
// LabResults chunk. The cases run one at a time in Web Workers (sim/lab-runner.ts) and each
// card fills in as its result comes back.
import { startTransition, useEffect, useState } from 'react';
import { useChunk } from '../useChunk';
import './lab.css';

const loadResults = () => import('./LabResults');

function LabHeader() {
  return (
    <header className="topbar lab-bar">
      <p className="brand">
        <a href="#/play">slub-lab</a>
      </p>
      <nav aria-label="Sections" className="nav">
        <a href="#/play">Playground</a>
        <a href="#/lessons">Lessons</a>
        <a href="#/explore">Explorer</a>
        <a href="#/lab" aria-current="page">
          Lab
        </a>
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
  useEffect(() => {
    document.title = 'Lab · slub-lab';
    return () => {
      document.title = 'slub-lab';
    };
  }, []);

  return (
    <main className="page lab" aria-labelledby="lab-title">
      <LabHeader />
      <h1 id="lab-title">The seeds’ benchmarks, rerun on the model</h1>
      <div className="lab-top">
        <section className="lab-intro" aria-label="How the lab works">
          <p className="lead">
            A <strong>seed</strong> is one of the five kernel texts this project grew from: a patch series or a paper that
            published a measurement of SLUB (cycles per allocation, a benchmark&apos;s time) before and after a change. Each
            comparison runs one workload on the model twice, <em>before</em> and <em>after</em> a patch (a variant of the
            model), and sets the model’s <strong>after ÷ before</strong> beside the ratio the seed published. One cost table
            charges every run, the same for every experiment: no constant is tuned to make one match.
          </p>
          <p>
            The model’s cycles are not the seeds’. Those come from an IA64 and x86 machines (a Core i7, Xeons), and include the call, mispredicted
            branches and the benchmark loop; the model charges every load its full latency, one after another, where a real
            core overlaps some of them. Around the allocator the lab adds what the seeds’ machines and benchmarks did: the page
            allocator’s zone lock and per-CPU page lists, kmalloc’s size lookup and the free’s reads of the object’s page, a store
            buffer, spinlocks handed to their waiters in turn, slab_test’s wait between its allocations and its frees, and a warm-up where the seed ran far longer than the
            model can. Each card lists the ones its comparison used. So the lab compares <em>ratios</em>, with verdicts kept
            apart: the <strong>sign</strong> (does the change go the seed&apos;s way?), the <strong>size</strong> (is the
            model&apos;s change between half and twice the seed&apos;s?) and the <strong>band</strong> (is the model&apos;s
            ratio close to the seed&apos;s, within the band the legend below gives?).
          </p>
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
    </main>
  );
}
