// The front page: what slub-lab is, in two sentences, the way in (lesson 1),
// the lessons as the arc they follow, and the playground, explorer and lab.
// The lessons' titles alone (the library itself loads with a lesson's page).
import LESSONS from 'virtual:lesson-titles';
import { SiteHeader } from './SiteHeader';

export function Home() {
  const first = LESSONS[0];
  return (
    <main className="page home" aria-labelledby="home-title">
      <SiteHeader current="home" />
      <h1 id="home-title">The Linux kernel&apos;s lockless slab allocator, run step by step</h1>
      <p className="lead">
        slub-lab runs a model of SLUB, the allocator behind every <code>kmalloc</code>, one atomic step at a time: you
        watch per-CPU freelists, transaction ids, compare-and-swap retries, frozen slabs and cache lines move between
        CPUs. You play the scheduler, and an explorer searches every interleaving for the one that breaks a variant.
      </p>
      <ol className="home-arc" aria-label="The arc the lessons follow, from 2007 to Linux 7.0">
        <li>
          <strong>2007</strong> SLUB replaces SLAB&apos;s queues with a per-CPU slab and a freelist threaded through the
          objects.
        </li>
        <li>
          <strong>2011</strong> the lockless fast path: a compare-and-swap of the freelist and a transaction id.
        </li>
        <li>
          <strong>2012–2024</strong> CPU partial lists, local locks, a safer tid read.
        </li>
        <li>
          <strong>7.0 (2026)</strong> per-CPU sheaves and a per-node barn replace the tid fast path.
        </li>
      </ol>
      {first !== undefined && (
        <p>
          <a className="start" href={`#/lessons/${first.id}/1`} data-testid="start-lesson-1">
            Start with lesson {String(first.number).padStart(2, '0')}: {first.title} →
          </a>
        </p>
      )}
      <div className="home-grid">
        <section aria-labelledby="home-lessons">
          <h2 id="home-lessons">Lessons</h2>
          <ol className="home-lessons">
            {LESSONS.map((l) => (
              <li key={l.id}>
                {/* Numbered 00–18, as the index and the reader number them. */}
                <span className="lesson-number">{String(l.number).padStart(2, '0')}</span>{' '}
                <a href={`#/lessons/${l.id}/1`}>{l.title}</a>
                <span className="muted"> · {l.steps} steps</span>
              </li>
            ))}
          </ol>
          <p>
            <a href="#/lessons">The lesson index</a>, with topics and your progress.
          </p>
        </section>
        <section aria-labelledby="home-tools">
          <h2 id="home-tools">Try it yourself</h2>
          <dl className="home-tools">
            <dt>
              <a href="#/play">Playground</a>
            </dt>
            <dd>Pick a scenario and a kernel version, then choose which CPU or interrupt moves next.</dd>
            <dt>
              <a href="#/explore">Explorer</a>
            </dt>
            <dd>Let the model try every interleaving and show the one that breaks an invariant.</dd>
            <dt>
              <a href="#/lab">Lab</a>
            </dt>
            <dd>
              Replay the measurements of the kernel patches this project grew from (its &ldquo;seeds&rdquo;) on the
              model&apos;s cost table, and see which effects it reproduces.
            </dd>
            <dt>
              <a href="#/compare">6.8 vs 7.0</a>
            </dt>
            <dd>Run one scenario under the tid fast path and under the sheaves side by side, an operation at a time.</dd>
          </dl>
        </section>
      </div>
    </main>
  );
}
