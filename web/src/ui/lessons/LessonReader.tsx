// The lesson reader, `#/lessons/<id>/<step>`: a step's narration beside the stage at the state
// after steps 1..n (movesThrough), its highlights marked on the views and listed in words, its
// prediction question (asked before the step's moves play), "try it yourself" in the
// playground, and the way on (steps, keyboard, the next lesson). The URL follows the step.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { movesThrough, revealed, stageTrack, tryItPlayground, type Lesson, type LessonHead, type Revealable } from '../../lessons';
import { listing as loadListing, type ListingFunction } from '../../sim';
import type { CommandName } from '../../state/commands';
import { playHash } from '../../state/url';
import { CrashScreen } from '../CrashScreen';
import { HelpDialog } from '../HelpDialog';
import { useShortcuts } from '../useShortcuts';
import { StatsPanel, VarsPanel, ViolationsPanel } from '../panels';
import { BUILTIN_TEXTS } from '../scenarios';
import { useSimReady } from '../simReady';
import { useSimulationWhen } from '../useSimulation';
import { useChunk } from '../useChunk';
import { useMediaQuery } from '../useMediaQuery';
import { useDockHeight } from '../useDockHeight';
import { describeHighlight, codeFor } from './highlight';
import { applyHighlights } from './highlightDom';
import { lessonProgress, lessonStatus, progressStore } from './progress';
import { Predict } from './Predict';
import { lessonHash, parseLessonPath } from './route';
import { SiteHeader } from '../SiteHeader';
import { stepAction, stepReducer } from './stepper';
import { useProgress } from './useProgress';
import { useWalk } from './useWalk';
import { trackKey, useSpeed, SpeedControl } from './pace';
import { LessonFrameEnd } from './LessonFrame';
import { ExportMenu } from '../ExportMenu';
import { lessonExportSpec } from './exportSpec';
import { LESSON_KEYS, bringIntoReach, isPhone, useSwipe } from './phone';

// The stage's drawing code (the views and D3, 37 KB gzip) comes after the prose, beside the
// simulator it waits for anyway: a lesson's words need neither.
const loadViews = () => import('../views');

/** No variant's listing yet (the simulator is loading or the scenario does not play). */
const NO_LISTING: readonly ListingFunction[] = [];

let listingCache: ListingFunction[] | undefined;
/** The whole listing, once the simulator is ready (empty until then). */
function useListing(ready: boolean): readonly ListingFunction[] {
  if (!ready) return [];
  listingCache ??= loadListing();
  return listingCache;
}

/** `T*7` for the moves as written, `migrate:T:1` kept as it is; plain repeats counted (`T ×6`). */
function movesText(moves: readonly string[]): string {
  const runs: string[] = [];
  let last = '';
  let count = 0;
  const flush = () => {
    if (count > 0) runs.push(count === 1 ? last : `${last} ×${String(count)}`);
  };
  for (const m of moves) {
    if (m === last && !/\*\d+$/.test(m)) {
      count++;
      continue;
    }
    flush();
    last = m;
    count = 1;
  }
  flush();
  return runs.map((m) => m.replace(/\*(\d+)$/, ' ×$1')).join(', ');
}

export function LessonReader({
  lessons,
  lesson,
  initialStep,
}: {
  lessons: readonly LessonHead[];
  lesson: Lesson;
  initialStep: number;
}) {
  const total = lesson.steps.length;
  const [step, setStep] = useState(initialStep);
  const [skipped, setSkipped] = useState<ReadonlySet<number>>(() => new Set());
  const [helpOpen, setHelpOpen] = useState(false);
  const progress = useProgress();
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  // The prose is drawn before the simulator is ready; the stage and panels once it is.
  const simReady = useSimReady();
  const viewsChunk = useChunk(loadViews, { afterPaint: true });
  const views = viewsChunk.kind === 'ready' ? viewsChunk.module : null;
  // The stage plays once both the simulator and its drawing code are here.
  const ready = simReady && views !== null;
  const listing = useListing(ready);
  const page = useRef<HTMLElement | null>(null);

  const current = lesson.steps[step - 1] ?? lesson.steps[0];
  if (current === undefined) throw new Error(`${lesson.file} has no steps`);
  const answers = lessonProgress(progress, lesson.id).answers;
  const answered = answers[String(step)];
  const pending = current.predict !== null && answered === undefined && !skipped.has(step);

  // The state: every move of the lesson is the schedule (or, at a what-if step, the run it
  // shows); the cursor is at the end of this step (at its start while its question waits for
  // an answer), reached move by move.
  const track = useMemo(() => stageTrack(lesson, current), [lesson, current]);
  const { before, after } = track;
  const [speed, setSpeed] = useSpeed();
  const walk = useWalk(pending ? before : after, !reducedMotion, trackKey(current, track.scenario), before, speed);
  const { replay } = walk;
  const derived = useSimulationWhen(ready, track.scenario, track.moves, walk.cursor);

  const go = useCallback(
    (name: CommandName) => {
      const action = stepAction(name);
      if (action === null) return;
      setStep((s) => stepReducer({ lo: 1, hi: total })({ step: s, playing: false }, action).step);
    },
    [total],
  );
  const run = useCallback(
    (name: CommandName) => {
      if (name === 'help') setHelpOpen((o) => !o);
      else if (name === 'togglePlay' || name === 'play') replay(before);
      else go(name);
    },
    [go, replay, before],
  );
  useShortcuts(run);
  // On a phone a sideways swipe turns the step, as the dock's arrows do.
  useSwipe(page, go);
  useDockHeight('.lesson-reader .step-nav');
  // On a phone a new step starts at its title (the dock at the bottom turned it): its question
  // or narration is what to read next, not the stage of the step before.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    if (!isPhone()) return;
    page.current?.querySelector('#step-title')?.scrollIntoView({ block: 'start' });
  }, [step]);

  // The URL follows the step (replaceState: stepping does not flood the history); a link to
  // another step of this lesson, followed while here, moves the reader there.
  useEffect(() => {
    const hash = lessonHash(lesson.id, step);
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
    document.title = `${lesson.front.title} · step ${step} of ${total} · slub-lab`;
    progressStore.visit(lesson.id, step);
    return () => {
      document.title = 'slub-lab';
    };
  }, [lesson, step, total]);
  useEffect(() => {
    const on = () => {
      const h = window.location.hash.replace(/^#/, '');
      const [path = '', query = ''] = h.split('?', 2);
      const r = parseLessonPath(path, query);
      if (r.kind === 'step' && r.id === lesson.id && r.step <= total) setStep(r.step);
    };
    window.addEventListener('hashchange', on);
    return () => window.removeEventListener('hashchange', on);
  }, [lesson.id, total]);

  const highlights = useMemo(
    () => current.highlights.map((h) => ({ name: h.name, h })),
    [current],
  );
  const view = derived.kind === 'ok' ? derived.view : null;
  const own = derived.kind === 'ok' ? derived.listing : NO_LISTING;
  // Mark the highlights on what the views drew (their layout effects ran first), and bring a
  // highlighted code line into the listing's view once per step.
  const scrolledFor = useRef<number | null>(null);
  useLayoutEffect(() => {
    const root = page.current;
    if (root === null || view === null) return;
    applyHighlights(
      root,
      highlights.map((x) => x.h),
      view,
    );
    if (scrolledFor.current === step) return;
    // In the next frame, after the listing's own scroll to the current line.
    const id = requestAnimationFrame(() => {
      scrolledFor.current = step;
      const li = root.querySelector<HTMLElement>('[data-testid="listing"] li[data-look]');
      const box = li?.closest<HTMLElement>('.listing');
      if (li == null || box == null) return;
      const top = li.offsetTop - (li.parentElement?.offsetTop ?? 0);
      if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 30) box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    });
    return () => cancelAnimationFrame(id);
  });

  if (derived.kind === 'crash') {
    return <CrashScreen title="The simulator crashed" message={derived.message} link={window.location.href} />;
  }

  // On a phone the stage is under the question: once answered, bring the verdict and the
  // stage's subject into view together, so the moves play where the learner can see them.
  const stageIntoView = () => {
    if (isPhone()) requestAnimationFrame(() => bringIntoReach(page.current, reducedMotion));
  };

  const index = lessons.findIndex((l) => l.id === lesson.id);
  const prevLesson = lessons[index - 1];
  const nextLesson = lessons[index + 1];
  const status = lessonStatus(progress, lesson.id, total);
  const visited = lessonProgress(progress, lesson.id).visited;
  const playground = tryItPlayground(lesson, current);
  const shown = (part: Revealable) => revealed(lesson.front, part, step);
  const stageHide = { tid: !shown('tid'), lines: !shown('lines'), primitives: !shown('primitives'), cycles: !shown('cycles') };
  const hereMoves = movesThrough(lesson, step);
  const hereLink = playHash(lesson.scenario, hereMoves, hereMoves.length, BUILTIN_TEXTS);
  const variant = Object.entries(lesson.front.variant);
  const whatIf =
    current.run === null
      ? []
      : [
          ...(current.run.allocator === null ? [] : [['allocator', current.run.allocator] as const]),
          ...Object.entries(current.run.variant),
          ...Object.entries(current.run.cache),
        ];
  const stepMoves = after - before;
  const played = Math.max(0, Math.min(stepMoves, walk.cursor - before));

  return (
    <main className="page lesson-reader" ref={page} data-lesson={lesson.id} data-step={step}>
      <SiteHeader current="reader">
        <button type="button" className="help-button" onClick={() => setHelpOpen(true)} aria-keyshortcuts="?">
          ? Shortcuts
        </button>
      </SiteHeader>

      <div className="lesson-head">
        <p className="crumbs">
          <a href="#/lessons">All lessons</a> › Lesson {String(lesson.number).padStart(2, '0')}
          {variant.length > 0 && (
            <span className="chip" title="This lesson changes these variant keys of its scenario">
              variant: {variant.map(([k, v]) => `${k} = ${String(v)}`).join(', ')}
            </span>
          )}
        </p>
        <h1 data-testid="lesson-title">
          {lesson.front.title}{' '}
          <span className="era-badge" data-testid="era-badge" title="The kernel whose code the listing shows">
            {lesson.front.era}
          </span>
        </h1>
        <p className="crux" data-testid="crux">
          <strong>The idea: </strong>
          <span dangerouslySetInnerHTML={{ __html: lesson.frame.cruxHtml }} />
        </p>
      </div>

      <nav className="step-nav" aria-label="Steps of this lesson">
        <button type="button" onClick={() => go('prev')} disabled={step <= 1} aria-keyshortcuts="ArrowLeft">
          ←<span className="word"> Previous step</span>
        </button>
        <span className="position" data-testid="step-position">
          Step {step} of {total}
        </span>
        {/* On a phone this bar is docked at the bottom: the step's one-move button is here too. */}
        {stepMoves > 1 && !pending && (
          <button type="button" className="dock-only" data-testid="dock-one-move" onClick={() => walk.stepOne(before)}>
            One move ▸
          </button>
        )}
        <button type="button" className="primary" onClick={() => go('next')} disabled={step >= total} aria-keyshortcuts="ArrowRight">
          Next<span className="word"> step</span> →
        </button>
        <ol className="step-dots">
          {lesson.steps.map((s) => {
            const seen = visited.includes(s.n);
            return (
              <li key={s.n}>
                <a
                  href={lessonHash(lesson.id, s.n)}
                  aria-current={s.n === step ? 'step' : undefined}
                  className={seen ? 'seen' : undefined}
                  title={`Step ${s.n}: ${s.title}${seen ? ' (visited)' : ''}`}
                  aria-label={`Step ${s.n}: ${s.title}${seen ? ', visited' : ''}`}
                  onClick={(e) => {
                    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
                    e.preventDefault();
                    setStep(s.n);
                  }}
                >
                  {s.n}
                  {seen && <span aria-hidden="true">✓</span>}
                </a>
              </li>
            );
          })}
        </ol>
      </nav>

      <div className="lesson-grid">
        <div className="lesson-text">
          <section aria-labelledby="step-title">
            <h2 id="step-title" data-testid="step-title">
              <span className="muted">Step {step}:</span> {current.title}
            </h2>
            {step === 1 && lesson.introHtml !== '' && (
              <div className="lesson-intro prose" dangerouslySetInnerHTML={{ __html: lesson.introHtml }} />
            )}
            {current.predict !== null && (
              <Predict
                key={`${lesson.id}/${step}`}
                predict={current.predict}
                answered={answered}
                skipped={skipped.has(step)}
                onAnswer={(choice) => {
                  progressStore.answer(lesson.id, step, choice);
                  stageIntoView();
                }}
                onSkip={() => {
                  setSkipped((s) => new Set(s).add(step));
                  stageIntoView();
                }}
                onAgain={() => {
                  progressStore.forgetAnswer(lesson.id, step);
                  setSkipped((s) => {
                    const n = new Set(s);
                    n.delete(step);
                    return n;
                  });
                }}
              />
            )}
            {pending ? (
              <p className="muted lesson-narration" data-testid="step-narration">
                Answer the question (or skip it) to see what happens in this step.
              </p>
            ) : (
              <>
                {/* Held mid-step by "One move ▸": the stage shows this move, not the step's end,
                    so say what this move did (the model's own narration of it) and that the
                    step's text describes where the step ends. */}
                {walk.held && derived.kind === 'ok' && (
                  <p className="move-narration" data-testid="move-narration" aria-live="polite">
                    <strong>
                      Move {played} of {stepMoves}:
                    </strong>{' '}
                    {derived.lastEvent?.narration ?? 'nothing has happened yet.'}{' '}
                    <span className="muted">The text below describes the end of this step.</span>
                  </p>
                )}
                <div
                  className={walk.held ? 'lesson-narration prose held' : 'lesson-narration prose'}
                  data-testid="step-narration"
                  aria-live={walk.held ? 'off' : 'polite'}
                  dangerouslySetInnerHTML={{ __html: current.narrationHtml }}
                />
              </>
            )}
          </section>

          {highlights.length > 0 && view !== null && (
            <section className="look-at" aria-labelledby="look-title">
              <h3 id="look-title">Look at</h3>
              <ul data-testid="look-at">
                {highlights.map(({ name, h }) => (
                  <li key={name} data-highlight={name}>
                    <span aria-hidden="true">▶ </span>
                    {describeHighlight(h, view, derived.kind === 'ok' ? derived.outcome : null, codeFor(view, listing, own))}
                  </li>
                ))}
              </ul>
            </section>
          )}

          {current.tryIt !== null && playground !== null && (
            <section className="try-it" aria-labelledby="try-title">
              <h3 id="try-title">Try it yourself</h3>
              <p dangerouslySetInnerHTML={{ __html: current.tryIt.goalHtml }} />
              <a
                className="button-link primary"
                data-testid="try-it"
                href={playHash(playground.scenario, playground.moves, playground.moves.length, BUILTIN_TEXTS, 'play', `${lesson.id}/${step}`)}
              >
                Open the playground {current.tryIt.from === 'start' ? 'at the start' : 'at this step'} →
              </a>
            </section>
          )}
          {current.tryIt === null && (
            <p className="small">
              <a href={hereLink} data-testid="open-here">
                Open this state in the playground
              </a>
            </p>
          )}

          {step === total && <LessonFrameEnd lesson={lesson} />}

          {step === total && (
            <nav className="lesson-end" aria-label="Other lessons" data-testid="lesson-end">
              <p>
                {status.completed ? (
                  <strong>✓ Lesson completed: you have seen all {total} steps.</strong>
                ) : (
                  <>
                    End of the lesson. You have seen {status.visited} of its {total} steps
                    {status.resumeAt !== step && (
                      <>
                        {' '}
                        (<a href={lessonHash(lesson.id, status.resumeAt)}>step {status.resumeAt}</a> is still unseen)
                      </>
                    )}
                    .
                  </>
                )}
              </p>
              <ul>
                {nextLesson !== undefined && (
                  <li>
                    Next lesson: <a href={lessonHash(nextLesson.id, 1)}>{nextLesson.front.title}</a> →
                  </li>
                )}
                {prevLesson !== undefined && (
                  <li>
                    ← Previous lesson: <a href={lessonHash(prevLesson.id, 1)}>{prevLesson.front.title}</a>
                  </li>
                )}
                <li>
                  <a href="#/lessons">All lessons</a>
                </li>
              </ul>
            </nav>
          )}

          <section className="code-panel" aria-label="Code listing" data-panel="code">
            <h3>Code</h3>
            {view !== null && views !== null && <views.ThreadPanes view={view} listing={own} />}
            {view !== null && views !== null && (
              <views.ListingView view={view} listing={own} event={derived.kind === 'ok' ? derived.lastEvent : undefined} hideEras={!shown('eras')} />
            )}
          </section>
        </div>

        <div className="col-stage">
          {current.run !== null && (
            <p className="what-if" data-testid="what-if" role="note">
              <strong>What if</strong>{' '}
              {whatIf.length > 0
                ? whatIf.map(([k, v]) => `${k} = ${String(v)}`).join(', ')
                : 'the moves were played in another order'}
              : the stage shows that run for this step only; the next step returns to the lesson&apos;s own.
            </p>
          )}
          <div className="step-moves small">
            {stepMoves === 0 ? (
              <span>This step plays no move.</span>
            ) : (
              <span data-testid="step-moves">
                This step plays <code>{movesText(current.run?.moves.slice(current.run.from) ?? current.movesSource)}</code>
                {pending ? ' once you answer' : walk.walking ? ` · move ${played} of ${stepMoves}` : ''}
              </span>
            )}
            {stepMoves > 0 && !pending && (
              <button
                type="button"
                className="link-button"
                onClick={() => (walk.walking ? walk.finish() : walk.replay(before))}
                aria-keyshortcuts="Space"
              >
                {walk.walking ? 'Skip to the end' : '↻ Replay the moves'}
              </button>
            )}
            {stepMoves > 1 && !pending && (
              <button type="button" className="link-button" data-testid="one-move" onClick={() => walk.stepOne(before)}>
                {walk.held || !walk.walking ? 'One move ▸' : 'Hold, then one move ▸'}
              </button>
            )}
            {stepMoves > 1 && !reducedMotion && <SpeedControl speed={speed} onChange={setSpeed} />}
          </div>
          {viewsChunk.kind === 'failed' ? (
            <p className="error" role="alert">
              The stage could not be loaded: {viewsChunk.message}
            </p>
          ) : derived.kind === 'loading' || views === null ? (
            <p className="loading stage-loading" role="status">
              Loading the simulator…
            </p>
          ) : derived.kind === 'error' ? (
            <p className="error" role="alert">
              This lesson does not play: {derived.message}
            </p>
          ) : (
            <>
              <h2 className="sr-only">Stage</h2>
              <views.StageView
                hide={stageHide}
                view={derived.view}
                event={derived.lastEvent}
                selection={null}
                step={walk.cursor}
                animate={!reducedMotion}
              />
              <p className="small">
                <a href={`#/lessons/${lesson.id}/handout`}>The lesson as a handout</a> (every step, to print or save as PDF)
              </p>
              <ExportMenu panelKey={`${lesson.id}/${step}`} spec={lessonExportSpec(lesson, current, track, derived.view, walk.cursor, stageHide)} />
            </>
          )}
        </div>

        <div className="col-right">
          {derived.kind === 'ok' && views !== null && (
            <>
              {shown('lines') && (
                <section className="panel" aria-labelledby="lines-h" data-panel="lines" tabIndex={0}>
                  <h2 id="lines-h">Cache lines</h2>
                  <views.LinesView view={derived.view} event={derived.lastEvent} step={walk.cursor} animate={!reducedMotion} />
                  <p className="muted small">M and E filled, S outlined, I grey: the MESI state of each line in each CPU&apos;s cache.</p>
                </section>
              )}
              {shown('vars') && (
                <div data-panel="vars">
                  <VarsPanel vars={derived.view.vars} />
                </div>
              )}
              {shown('stats') && (
                <div data-panel="stats">
                  <StatsPanel outcome={derived.outcome} />
                </div>
              )}
              {shown('violations') && (
                <div data-panel="violations">
                  <ViolationsPanel violations={derived.view.violations} />
                </div>
              )}
            </>
          )}
        </div>
      </div>

      <HelpDialog open={helpOpen} onClose={() => setHelpOpen(false)} keys={LESSON_KEYS} />
    </main>
  );
}
