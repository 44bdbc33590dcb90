// The lesson index, `#/lessons?topic=&q=`: every lesson with its title, summary, topics and
// seeds, the learner's progress (localStorage), and a filter by topic and by text that the URL
// keeps (so a filtered index is a link too).
import { useEffect, useId, useMemo, useState } from 'react';
import { DESCRIPTIONS, type LessonHead } from '../../lessons';
import { lessonStatus, progressStore, type LessonStatus } from './progress';
import { indexHash, lessonHash } from './route';
import { SiteHeader } from '../SiteHeader';
import { useProgress } from './useProgress';

/** The words a lesson is found by: its title, summary, id, topics, seeds, patches, step titles. */
function haystack(l: LessonHead): string {
  return [
    l.front.title,
    l.front.summary,
    l.id,
    ...l.front.topics,
    ...l.front.topics.map((t) => DESCRIPTIONS.topics[t] ?? ''),
    ...l.front.seeds,
    ...l.front.seeds.map((s) => DESCRIPTIONS.seeds[s] ?? ''),
    ...l.front.patches,
    ...l.steps.map((s) => s.title),
  ]
    .join('\n')
    .toLowerCase();
}

/** Every word of `text` must occur (case-insensitive); the topic, if any, must be one of the lesson's. */
export function matches(l: LessonHead, topic: string | null, text: string): boolean {
  if (topic !== null && !l.front.topics.includes(topic)) return false;
  const words = text.toLowerCase().split(/\s+/).filter((w) => w !== '');
  if (words.length === 0) return true;
  const hay = haystack(l);
  return words.every((w) => hay.includes(w));
}

function seedShort(file: string): string {
  return file.replace(/_.*$/, '');
}

function StatusText({ status }: { status: LessonStatus }) {
  if (status.completed) return <span className="status done">✓ Completed</span>;
  if (status.visited === 0) return <span className="status">Not started</span>;
  return (
    <span className="status">
      Seen {status.visited} of {status.total} steps
    </span>
  );
}

export function LessonIndex({ lessons, topic, text }: { lessons: readonly LessonHead[]; topic: string | null; text: string }) {
  const [filter, setFilter] = useState({ topic, text });
  const progress = useProgress();
  const ids = useId();

  // The URL follows the filter (replaceState: typing does not flood the history).
  useEffect(() => {
    const hash = indexHash(filter.topic, filter.text);
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, [filter]);
  useEffect(() => {
    document.title = 'Lessons · slub-lab';
    return () => {
      document.title = 'slub-lab';
    };
  }, []);

  const topics = useMemo(() => {
    const count = new Map<string, number>();
    for (const l of lessons) for (const t of l.front.topics) count.set(t, (count.get(t) ?? 0) + 1);
    const known = Object.keys(DESCRIPTIONS.topics).filter((t) => count.has(t));
    return known.map((t) => ({ topic: t, count: count.get(t) ?? 0 }));
  }, [lessons]);
  const shown = lessons.filter((l) => matches(l, filter.topic, filter.text));
  const statuses = new Map(lessons.map((l) => [l.id, lessonStatus(progress, l.id, l.steps.length)]));
  const completed = lessons.filter((l) => statuses.get(l.id)?.completed === true).length;
  const started = lessons.filter((l) => (statuses.get(l.id)?.visited ?? 0) > 0).length;
  const filtered = filter.topic !== null || filter.text.trim() !== '';

  return (
    <main className="page lesson-index" aria-labelledby="lessons-title">
      <SiteHeader current="index" />
      <h1 id="lessons-title">Lessons</h1>
      <p className="lead">
        A course on the kernel&apos;s lockless slab allocator, one interleaving at a time. Every step
        runs in the model, and every claim a lesson makes is checked by replaying it.
      </p>
      <p data-testid="course-links">
        Start with <a href={lessonHash('why-slab-caches', 1)}>why slab caches</a>, end with{' '}
        <a href={lessonHash('queues-again', 1)}>queues, no queues, queues again</a>. Look words up in the{' '}
        <a href="#/lessons/glossary">glossary</a>; the <a href="#/lessons/invariants">invariants</a> page lists what the
        model checks.
      </p>

      <div className="index-tools">
        <form className="filter" role="search" aria-label="Filter the lessons" onSubmit={(e) => e.preventDefault()}>
          <label>
            Topic{' '}
            <select
              value={filter.topic ?? ''}
              onChange={(e) => setFilter((f) => ({ ...f, topic: e.target.value === '' ? null : e.target.value }))}
              data-testid="topic-filter"
            >
              <option value="">All topics</option>
              {filter.topic !== null && !topics.some((t) => t.topic === filter.topic) && (
                <option value={filter.topic}>{filter.topic} (no lesson)</option>
              )}
              {topics.map((t) => (
                <option key={t.topic} value={t.topic}>
                  {t.topic} ({t.count})
                </option>
              ))}
            </select>
          </label>
          <label>
            Search{' '}
            <input
              type="search"
              value={filter.text}
              placeholder="tid, remote free, 004…"
              onChange={(e) => setFilter((f) => ({ ...f, text: e.target.value }))}
              data-testid="text-filter"
            />
          </label>
          {filtered && (
            <button type="button" onClick={() => setFilter({ topic: null, text: '' })}>
              Show all
            </button>
          )}
        </form>
        <p className="progress-summary">
          <span data-testid="overall-progress">
            {completed} of {lessons.length} lessons completed{started > completed ? `, ${started - completed} started` : ''}
          </span>
          {started > 0 && (
            <button type="button" className="link-button" onClick={() => progressStore.reset()}>
              Forget my progress
            </button>
          )}
        </p>
      </div>

      <p className="sr-only" role="status" aria-live="polite" data-testid="lesson-count">
        {filtered ? `${shown.length} of ${lessons.length} lessons shown` : `${lessons.length} lessons`}
      </p>
      {filtered && (
        <p className="muted" aria-hidden="true">
          {shown.length} of {lessons.length} lessons shown
          {filter.topic !== null && (
            <>
              {' '}
              · topic <strong>{filter.topic}</strong>: {DESCRIPTIONS.topics[filter.topic] ?? 'not a topic of any lesson'}
            </>
          )}
        </p>
      )}

      {shown.length === 0 ? (
        <p data-testid="no-lesson">
          No lesson matches.{' '}
          <button type="button" className="link-button" onClick={() => setFilter({ topic: null, text: '' })}>
            Show all lessons
          </button>
        </p>
      ) : (
        <ol className="lesson-list" data-testid="lesson-list">
          {shown.map((l) => {
            const status = statuses.get(l.id) ?? lessonStatus(progress, l.id, l.steps.length);
            const titleId = `${ids}-${l.id}`;
            const nn = String(l.number).padStart(2, '0');
            return (
              <li key={l.id} className={`lesson-card${status.completed ? ' completed' : ''}`} data-lesson={l.id} data-steps={l.steps.length}>
                <article aria-labelledby={titleId}>
                  <h2 id={titleId}>
                    <a href={lessonHash(l.id, 1)}>
                      <span className="num">{nn}</span> {l.front.title}
                    </a>
                  </h2>
                  <p className="summary">{l.front.summary}</p>
                  <div className="meta small">
                    <span>{l.steps.length} steps</span>
                    <StatusText status={status} />
                    {status.visited > 0 && !status.completed && (
                      <a href={lessonHash(l.id, status.resumeAt)} data-testid="continue">
                        Continue at step {status.resumeAt} →
                      </a>
                    )}
                    <span className="bar" aria-hidden="true">
                      <span style={{ width: `${(100 * status.visited) / Math.max(1, status.total)}%` }} />
                    </span>
                  </div>
                  <div className="tags small">
                    <span className="tag-label">Topics:</span>
                    {l.front.topics.map((t) => (
                      <button
                        key={t}
                        type="button"
                        className="topic"
                        aria-pressed={filter.topic === t}
                        title={DESCRIPTIONS.topics[t]}
                        onClick={() => setFilter((f) => ({ ...f, topic: f.topic === t ? null : t }))}
                      >
                        {t}
                      </button>
                    ))}
                  </div>
                  <div className="tags seed-tags small">
                    <span className="tag-label">Seeds:</span>
                    {l.front.seeds.length === 0 ? (
                      <span className="muted">none (the specification only)</span>
                    ) : (
                      <ul className="seeds">
                        {l.front.seeds.map((s) => (
                          <li key={s}>
                            <code title={s}>{seedShort(s)}</code> {DESCRIPTIONS.seeds[s] ?? s}
                          </li>
                        ))}
                      </ul>
                    )}
                  </div>
                </article>
              </li>
            );
          })}
        </ol>
      )}
    </main>
  );
}
