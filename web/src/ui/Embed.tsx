// The embed (design.md §6): one frame of the stage for slides, driven by its host through
// postMessage with the same command table as the keyboard. It shows a lesson step
// (`#/lessons/<id>/<step>`, ui/lessons/LessonEmbed.tsx) or a playground state (`#/play?s=&m=&at=`),
// plus the embed's own parameters (state/embed.ts).
import { lazy, Suspense, useCallback, useEffect, useMemo, useReducer, useRef } from 'react';
import { commandAction, parseEmbedMessage, type CommandName } from '../state/commands';
import { parseEmbedOptions, performBounded, type EmbedOptions, type StepMessage } from '../state/embed';
import type { PlayerState } from '../state/player';
import { parseHash } from '../state/url';
import { LinkErrorPanel } from './LinkErrorPanel';
import { CrashScreen } from './CrashScreen';
import { playState } from './route';
import { BUILTIN_TEXTS, DEFAULT_SCENARIO_ID } from './scenarios';
import { useEmbedFrame } from './embedFrame';
import { useCommandQueue } from './useCommandQueue';
import { usePlayTimer } from './usePlayTimer';
import { useShortcuts } from './useShortcuts';
import { useSlicedSimulation } from './useSimulation';
import { ReplayStatus } from './ReplayProgress';
import { useMediaQuery } from './useMediaQuery';
import { StageView, TimelineView } from './views';
import { ExportMenu } from './ExportMenu';
import { playHash } from '../state/url';

// A lesson step, with the lesson library and its parsers, loads when asked for.
const LessonEmbedPage = lazy(() => import('./lessons/LessonEmbed').then((m) => ({ default: m.LessonEmbedPage })));

/** Stage text in an embed: at least 14 px (12 px × 7/6), from the back of a lecture hall. */
const EMBED_FIT = { minScale: 7 / 6 };

export function EmbedPage({ hash }: { hash: string }) {
  const parsed = parseHash(hash, BUILTIN_TEXTS, DEFAULT_SCENARIO_ID);
  // An embed has no front page: its root plays the sample scenario.
  const route = parsed.kind === 'home' ? parseHash('#/play', BUILTIN_TEXTS, DEFAULT_SCENARIO_ID) : parsed;
  if (route.kind === 'error') return <LinkErrorPanel error={route} hash={hash} />;
  if (route.kind === 'lessons') {
    return (
      <Suspense fallback={<p role="status">Loading…</p>}>
        <LessonEmbedPage path={route.path} query={route.query} hash={hash} />
      </Suspense>
    );
  }
  if (route.kind === 'lab' || route.kind === 'home' || route.kind === 'compare') {
    return (
      <main className="embed not-embeddable">
        <p data-testid="not-embeddable">slub-lab: this embed shows a lesson step (#/lessons/…) or a playground scenario (#/play?s=…).</p>
      </main>
    );
  }
  const options = parseEmbedOptions(hash);
  if ('kind' in options) return <LinkErrorPanel error={options} hash={hash} />;
  const state = playState(route);
  if ('kind' in state) return <LinkErrorPanel error={state} hash={hash} />;
  return <Embed initial={state} options={options} lesson={route.scenarioId} />;
}

function Embed({ initial, options, lesson }: { initial: PlayerState; options: EmbedOptions; lesson: string | null }) {
  const reducer = useMemo(() => performBounded(options), [options]);
  const [state, dispatch] = useReducer(reducer, initial, (s) =>
    reducer({ ...s, playing: options.autoplay }, { type: 'goto', cursor: Math.max(s.cursor, options.from) }),
  );
  useEmbedFrame(options.theme);
  // A long link is replayed in slices, as in the playground; Cancel keeps what was replayed.
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });
  const keepReplayed = useCallback((done: number) => {
    const now = latest.current;
    dispatch({ type: 'loadScenario', scenario: now.scenario, schedule: now.schedule.slice(0, done), cursor: Math.min(now.cursor, done) });
  }, []);
  const { derived, cancel: cancelReplay } = useSlicedSimulation(state.scenario, state.schedule, state.cursor, keepReplayed);
  const enabledMoves = useMemo(() => (derived.kind === 'ok' ? derived.view.enabledMoves : []), [derived]);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');

  const run = (name: CommandName, step?: number) => {
    const action = commandAction(name, step === undefined ? { enabledMoves } : { enabledMoves, step });
    if (action !== null) dispatch(action);
  };
  // Keys and the host's messages, one after another, each on the state the last one left.
  const enqueue = useCommandQueue<{ name: CommandName; step?: number }>((c) => run(c.name, c.step));
  useShortcuts(useCallback((name: CommandName) => enqueue({ name }), [enqueue]));

  // Host → embed.
  useEffect(() => {
    const on = (e: MessageEvent) => {
      const cmd = parseEmbedMessage(e.data);
      if (cmd === null) return;
      enqueue(cmd.step === undefined ? { name: cmd.command } : { name: cmd.command, step: cmd.step });
    };
    window.addEventListener('message', on);
    return () => window.removeEventListener('message', on);
  }, [enqueue]);

  // Embed → host, on every change.
  const total = options.to ?? state.schedule.length;
  useEffect(() => {
    const msg: StepMessage = { type: 'slub-lab:step', lesson, step: state.cursor, total };
    if (window.parent !== window) window.parent.postMessage(msg, '*');
  }, [lesson, state.cursor, total]);

  usePlayTimer(state, enabledMoves, dispatch);

  if (derived.kind === 'crash') return <CrashScreen title="The simulator crashed" message={derived.message} />;
  if (derived.kind === 'replaying') {
    return (
      <main className="embed" aria-busy="true" data-testid="replay-progress">
        <ReplayStatus done={derived.done} total={derived.total} onCancel={cancelReplay} />
      </main>
    );
  }
  if (derived.kind === 'bad-move') return <LinkErrorPanel error={{ kind: 'error', part: 'm', message: derived.message }} hash={window.location.hash} />;
  if (derived.kind === 'error') {
    return (
      <main className="embed">
        <p className="error" role="alert">
          This scenario cannot be played: {derived.message}
        </p>
      </main>
    );
  }
  const { view, lastEvent, events } = derived;
  const animate = !reducedMotion && state.speed < 4;
  return (
    <main className="embed" aria-label={`slub-lab: ${view.scenarioName}`}>
      <p className="narration" aria-live="polite" data-testid="narration">
        {lastEvent === undefined ? 'Nothing has happened yet.' : lastEvent.narration}
      </p>
      <StageView fitHeight={EMBED_FIT} legend={false} hide={{ lines: options.lines === 'off' }} view={view} event={lastEvent} selection={state.selection} step={state.cursor} animate={animate} />
      {options.controls !== 'none' && (
        <div className="buttons">
          <button type="button" onClick={() => run('prev')} disabled={state.cursor <= options.from} aria-keyshortcuts="ArrowLeft">
            ← Back
          </button>
          <button type="button" onClick={() => run('togglePlay')} aria-pressed={state.playing}>
            {state.playing ? '⏸ Pause' : '▶ Play'}
          </button>
          <button type="button" onClick={() => run('next')} disabled={state.cursor >= total && enabledMoves.length === 0} aria-keyshortcuts="ArrowRight">
            Next →
          </button>
          <span className="position" data-testid="position">
            move {state.cursor} of {total}
          </span>
          <a className="open-full" href={`./index.html${window.location.hash.replace(/[&?](from|to|autoplay|controls)=[^&]*/g, '')}`} target="_blank" rel="noreferrer">
            Open in slub-lab
          </a>
        </div>
      )}
      {options.controls === 'full' && (
        <ExportMenu panelKey={state.schedule.length} spec={{
            caption: () => ({
              title: `slub-lab · ${view.scenarioName}`,
              position: `move ${state.cursor} of ${total} · atomic step ${view.steps}`,
              violations: view.violations.map((x) => `⚠ ${x.invariant} violated (atomic step ${x.step}): ${x.message}`),
            }),
            source: { scenario: state.scenario, schedule: state.schedule, title: `slub-lab · ${view.scenarioName}`, hide: { lines: options.lines === 'off' }, focus: { cpus: [], nodes: [] } },
            name: `slub-lab-move-${state.cursor}`,
            link: playHash(state.scenario, state.schedule, state.cursor, BUILTIN_TEXTS, 'play', null),
            from: options.from,
            to: total,
          }}
        />
      )}
      {options.controls === 'full' && (
        <TimelineView
          events={events}
          schedule={state.schedule}
          cursor={state.cursor}
          view={view}
          animate={animate}
          onGoto={(cursor) => dispatch({ type: 'goto', cursor })}
        />
      )}
    </main>
  );
}
