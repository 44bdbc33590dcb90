// A lesson step in the embed (design.md §6): `embed.html#/lessons/<id>/<step>?from=&to=&autoplay=
// &controls=none|minimal|full`. The unit is the lesson step: `from`/`to` bound the steps the
// host may show, `next`/`prev`/`goto` move between them (each step's moves play out on the
// stage), `play` walks through them; every change posts `{type: "slub-lab:step", lesson, step,
// total}` to the host, `total` being the last step it may reach. Predictions are not asked here:
// the stage shows each step's outcome, for the speaker to ask about.
import { useCallback, useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from 'react';
import { revealed, stageTrack, type Lesson } from '../../lessons';
import { LESSON_HEADS, lessonLoader } from '../../lessons/heads';
import { parseEmbedMessage, type CommandName } from '../../state/commands';
import { parseEmbedOptions, type EmbedOptions, type StepMessage } from '../../state/embed';
import { LinkErrorPanel } from '../LinkErrorPanel';
import { CrashScreen } from '../CrashScreen';
import { useChunk } from '../useChunk';
import { useShortcuts } from '../useShortcuts';
import { useEmbedFrame } from '../embedFrame';
import { useSimulation } from '../useSimulation';
import { ListingView, StageView } from '../views';
import { useMediaQuery } from '../useMediaQuery';
import { keepOf } from '../../render/focus';
import { applyHighlights } from './highlightDom';
import { cropToSubject, leadOf } from './cropStage';
import { citedStats } from './citedStats';
import { lessonHash, parseLessonPath, resolveStep } from './route';
import { stepAction, stepReducer, type StepBounds } from './stepper';
import { useWalk } from './useWalk';
import { trackKey } from './pace';
import { ExportMenu } from '../ExportMenu';
import { lessonExportSpec } from './exportSpec';
import './lessons.css';

/** While playing, how long a step stays once its moves have played. */
export const DWELL_MS = 2500;

/** Stage text in an embed: at least 14 px (12 px × 7/6), from the back of a lecture hall. */
const EMBED_FIT = { minScale: 7 / 6 };

/** Whether the stage in `root` is laid out for the width its box has now (views.tsx StageView). */
function laidOut(root: HTMLElement): boolean {
  const box = root.querySelector<HTMLElement>('.embed-stage .stage-box');
  return box !== null && Number(box.dataset.width) === Math.max(200, Math.round(box.clientWidth));
}

/** The frame's size, as a key. */
const frameSize = () => `${window.innerWidth}x${window.innerHeight}`;

/** The frame's size, as a key, kept up to date. */
function useFrameSize(): string {
  const [size, setSize] = useState(frameSize);
  useEffect(() => {
    const on = () => setSize(frameSize());
    window.addEventListener('resize', on);
    return () => window.removeEventListener('resize', on);
  }, []);
  return size;
}

export function LessonEmbedPage({ path, query, hash }: { path: string; query: string; hash: string }) {
  const route = parseLessonPath(path, query);
  if (route.kind === 'error') return <LinkErrorPanel error={route} hash={hash} />;
  if (route.kind !== 'step') {
    return (
      <LinkErrorPanel
        error={{ kind: 'error', part: 'route', message: 'an embed shows a lesson step: #/lessons/<lesson>/<step>' }}
        hash={hash}
      />
    );
  }
  const found = resolveStep(LESSON_HEADS, route.id, route.step);
  if ('kind' in found) return <LinkErrorPanel error={found} hash={hash} />;
  const options = parseEmbedOptions(hash);
  if ('kind' in options) return <LinkErrorPanel error={options} hash={hash} />;
  const total = found.lesson.steps.length;
  if (options.from > total) {
    return <LinkErrorPanel error={{ kind: 'error', part: 'from', message: `${options.from} is beyond the ${total} steps of the lesson` }} hash={hash} />;
  }
  const lo = Math.max(1, options.from);
  const hi = Math.max(lo, Math.min(total, options.to ?? total));
  return <EmbedLoader key={found.lesson.id} id={found.lesson.id} initial={Math.max(lo, Math.min(hi, found.step))} lo={lo} hi={hi} options={options} />;
}

/** The embed once its lesson is here (a chunk of its own, heads.ts). */
function EmbedLoader({ id, ...rest }: { id: string; initial: number; lo: number; hi: number; options: EmbedOptions }) {
  const lesson = useChunk(lessonLoader(id));
  if (lesson.kind === 'ready') return <LessonEmbed lesson={lesson.module} {...rest} />;
  if (lesson.kind === 'failed') return <CrashScreen title="The lesson could not be loaded" message={lesson.message} />;
  return (
    <p className="loading" role="status">
      Loading the lesson…
    </p>
  );
}

function LessonEmbed({ lesson, initial, lo, hi, options }: { lesson: Lesson; initial: number; lo: number; hi: number; options: EmbedOptions }) {
  const bounds: StepBounds = useMemo(() => ({ lo, hi }), [lo, hi]);
  const reducer = useMemo(() => stepReducer(bounds), [bounds]);
  const [state, dispatch] = useReducer(reducer, { step: initial, playing: options.autoplay && initial < hi });
  useEmbedFrame(options.theme);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const root = useRef<HTMLElement | null>(null);
  const current = lesson.steps[state.step - 1] ?? lesson.steps[0];
  if (current === undefined) throw new Error(`${lesson.file} has no steps`);

  // The lesson's own run, or the run a what-if step shows.
  const track = useMemo(() => stageTrack(lesson, current), [lesson, current]);
  const walk = useWalk(track.after, !reducedMotion, trackKey(current, track.scenario), track.before);
  const derived = useSimulation(track.scenario, track.moves, walk.cursor);

  const run = useCallback((name: CommandName, step?: number) => {
    const action = stepAction(name, step);
    if (action !== null) dispatch(action);
  }, []);
  useShortcuts(run);

  // Host → embed: the commands of design.md §6; anything else is ignored.
  useEffect(() => {
    const on = (e: MessageEvent) => {
      const cmd = parseEmbedMessage(e.data);
      if (cmd !== null) run(cmd.command, cmd.step);
    };
    window.addEventListener('message', on);
    return () => window.removeEventListener('message', on);
  }, [run]);

  // Embed → host, on every change.
  useEffect(() => {
    const msg: StepMessage = { type: 'slub-lab:step', lesson: lesson.id, step: state.step, total: hi };
    if (window.parent !== window) window.parent.postMessage(msg, '*');
  }, [lesson.id, state.step, hi]);

  // Playing: once a step's moves have played, stay a moment, then the next step.
  useEffect(() => {
    if (!state.playing || walk.walking) return;
    const id = window.setTimeout(() => dispatch({ type: 'tick' }), DWELL_MS);
    return () => window.clearTimeout(id);
  }, [state.playing, state.step, walk.walking]);

  const highlights = current.highlights;
  const keep = useMemo(() => keepOf(highlights), [highlights]);
  const view = derived.kind === 'ok' ? derived.view : null;
  const shownStep = useRef(0);
  const projector = options.density === 'projector';
  // On a projector, a step whose subject does not fit under its whole narration shows the
  // narration's first paragraph and a "More" button (the speaker opens the rest): the step
  // it is for, and whether it is open.
  const [brief, setBrief] = useState<{ step: number; open: boolean } | null>(null);
  const briefNow = brief !== null && brief.step === state.step;
  // And when it still does not fit, the nodes and barns are drawn a card wide, so that the crop
  // can put the one the step is about in the place of a CPU it is not about: the step it is for.
  // Both are decided on a stage laid out for its box's width (its first draw is for a guessed
  // one, at another scale), and this one holds for the frame's size it was found at.
  const [narrow, setNarrow] = useState<{ step: number; size: string } | null>(null);
  const size = useFrameSize();
  const narrowNow = projector && narrow !== null && narrow.step === state.step && narrow.size === size;
  const step = state.step;
  const lead = useMemo(() => leadOf(highlights[0]), [highlights]);
  const fit = useCallback(
    (el: HTMLElement) => {
      const crop = cropToSubject(el, lead);
      if (crop === null || crop.whole || !laidOut(el)) return;
      const paragraphs = el.querySelector('[data-testid="narration"]')?.childElementCount ?? 0;
      if (paragraphs > 1 && !briefNow) setBrief({ step, open: false });
      else setNarrow({ step, size: frameSize() });
    },
    [step, lead, briefNow],
  );
  useLayoutEffect(() => {
    if (root.current !== null && view !== null) {
      applyHighlights(root.current, highlights, view);
      // A new step's subject in view: a slide's frame may be shorter than the stage (on a
      // projector the stage is cropped to it, cropStage.ts; elsewhere the frame scrolls to it).
      if (projector) fit(root.current);
      if (shownStep.current !== state.step) {
        shownStep.current = state.step;
        if (!projector) root.current.querySelector('svg [data-look]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      }
    }
  });
  // Once more after the stage has settled: a step's tweens move the cards, and a slide's embed
  // is loaded before its slide is shown, so its frame gets its size (and the stage is laid out
  // again) only when the deck reaches it. And again once nodes drawn a card wide have moved.
  const hasView = view !== null;
  useEffect(() => {
    const el = root.current;
    if (!hasView || el === null) return;
    const bring = () => {
      if (projector) fit(el);
      else el.querySelector('svg [data-look]')?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    };
    const frame = requestAnimationFrame(bring);
    const later = window.setTimeout(bring, 450);
    const resized = new ResizeObserver(bring);
    resized.observe(el);
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(later);
      resized.disconnect();
    };
  }, [state.step, hasView, projector, fit, narrowNow, size]);

  if (derived.kind === 'crash') return <CrashScreen title="The simulator crashed" message={derived.message} />;
  if (derived.kind === 'error') {
    return (
      <main className="embed">
        <p className="error" role="alert">
          This lesson does not play: {derived.message}
        </p>
      </main>
    );
  }
  const full = options.controls === 'full';
  const showLines = options.lines === 'on' || (options.lines === 'auto' && lesson.front.topics.includes('cache-lines'));
  const { view: v, lastEvent, outcome, listing } = derived;
  // A slide has no room for the statistics panel: the counters the step names, with their
  // values at the move the stage shows.
  const counters = projector ? citedStats(highlights, current.narrationHtml, Object.keys(outcome.stats.total)) : [];
  const hide = {
    tid: !revealed(lesson.front, 'tid', state.step),
    lines: !revealed(lesson.front, 'lines', state.step) || !showLines,
    primitives: !revealed(lesson.front, 'primitives', state.step),
    cycles: !revealed(lesson.front, 'cycles', state.step),
  };
  return (
    <main
      ref={root}
      className={`embed lesson-embed${full ? ' full' : ''}`}
      aria-label={`slub-lab lesson: ${lesson.front.title}`}
      data-lesson={lesson.id}
      data-step={state.step}
    >
      <p className="embed-head">
        <span data-testid="position">
          Step {state.step} of {hi}
        </span>
        : <strong>{current.title}</strong> <span className="muted">· {lesson.front.title}</span>
      </p>
      <div
        className={`narration prose${briefNow && !brief.open ? ' brief' : ''}`}
        aria-live="polite"
        data-testid="narration"
        dangerouslySetInnerHTML={{ __html: current.narrationHtml }}
      />
      {(briefNow || counters.length > 0) && (
        <div className="embed-under">
          {counters.length > 0 && (
            <table className="embed-stats" data-panel="stats" data-testid="embed-stats" aria-label="Counters">
              <tbody>
                {counters.map((name) => (
                  <tr key={name}>
                    <th scope="row">
                      <code>{name}</code>
                    </th>
                    <td>{outcome.stats.total[name] ?? 0}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {briefNow && (
            <button type="button" className="narration-more" aria-expanded={brief.open} onClick={() => setBrief({ step: state.step, open: !brief.open })}>
              {brief.open ? 'Less ▴' : 'More of the narration ▾'}
            </button>
          )}
        </div>
      )}
      <div className="embed-stage">
        {full && <ListingView view={v} listing={listing} event={lastEvent} hideEras={!revealed(lesson.front, 'eras', state.step)} />}
        <StageView
          fitHeight={EMBED_FIT}
          keep={keep}
          legend={false}
          narrowNodes={narrowNow}
          hide={hide}
          view={v}
          event={lastEvent}
          selection={null}
          step={walk.cursor}
          animate={!reducedMotion}
        />
      </div>
      {/* A slide's embed has no room for it; `controls=full` (and `npm run export`) has. */}
      {full && <ExportMenu panelKey={`${lesson.id}/${state.step}`} spec={lessonExportSpec(lesson, current, track, v, walk.cursor, hide, keep)} />}
      {options.controls !== 'none' && (
        <div className="buttons">
          <button type="button" onClick={() => run('prev')} disabled={state.step <= lo} aria-keyshortcuts="ArrowLeft">
            ← Back
          </button>
          <button type="button" onClick={() => run('togglePlay')} aria-pressed={state.playing}>
            {state.playing ? '⏸ Pause' : '▶ Play'}
          </button>
          <button type="button" onClick={() => run('next')} disabled={state.step >= hi} aria-keyshortcuts="ArrowRight">
            Next →
          </button>
          <a className="open-full" href={`./index.html${lessonHash(lesson.id, state.step)}`} target="_blank" rel="noreferrer">
            Open in slub-lab
          </a>
        </div>
      )}
    </main>
  );
}
