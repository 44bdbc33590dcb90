// The playground: the learner is the scheduler. Player state lives in one reducer (perform);
// everything shown is derived from it through the simulator; the URL follows the state.
import { Fragment, lazy, memo, Suspense, useCallback, useEffect, useMemo, useReducer, useRef, useState, type Dispatch } from 'react';
import { movesToEnd, type View } from '../sim';
import { commandAction, type CommandName } from '../state/commands';
import {
  canStepBack,
  canStepForward,
  NO_TWEEN_SPEED,
  perform,
  replayJson,
  SPEEDS,
  type Action,
  type PlayerState,
} from '../state/player';
import { compareHash, playHash, type PlayPage } from '../state/url';
import { withVariant, type VariantValue } from '../state/variant';
import { CrashScreen } from './CrashScreen';
import { counterexample, ExplorerPanel } from './ExplorerPanel';
import { ExportMenu } from './ExportMenu';
import type { ExportSpec } from './ExportPanel';
import { HelpDialog } from './HelpDialog';
import { Icon } from './Icon';
import { describeMove, describeRunToEnd } from './moves';
import { StatsPanel, VarsPanel, ViolationBanner, ViolationsPanel } from './panels';
import { LinkErrorPanel } from './LinkErrorPanel';
import { ReplayProgress } from './ReplayProgress';
import { ScenarioBar } from './ScenarioBar';
import { ScenarioLoader } from './ScenarioLoader';
import { BUILTIN_TEXTS } from './scenarios';
import { useExplorer } from './useExplorer';
import { usePlayTimer } from './usePlayTimer';
import { useShortcuts } from './useShortcuts';
import { useCommandQueue } from './useCommandQueue';
import { playablePrefix, useSlicedSimulation } from './useSimulation';
import { LinesView, ListingView, StageView, ThreadPanes, TimelineView } from './views';
import { PlayHeader } from './PlayHeader';
import { useMediaQuery } from './useMediaQuery';
import { useDockHeight } from './useDockHeight';

const URL_DELAY_MS = 150;

// A lesson's goal comes with the lesson library: loaded only when a link names one.
const GoalBanner = lazy(() => import('./GoalBanner').then((m) => ({ default: m.GoalBanner })));

export function Player({
  initial,
  page: initialPage = 'play',
  goal = null,
}: {
  initial: PlayerState;
  page?: PlayPage;
  /** `<lesson id>/<step>` of the try-it that opened the playground (url.ts `goal`). */
  goal?: string | null;
}) {
  const [state, dispatch] = useReducer(perform, initial);
  // A long link is replayed in slices; Cancel keeps the moves replayed so far.
  // Callbacks read the latest state through this (kept current by an effect below).
  const latest = useRef(state);
  const keepReplayed = useCallback((done: number) => {
    const now = latest.current;
    dispatch({ type: 'loadScenario', scenario: now.scenario, schedule: now.schedule.slice(0, done), cursor: Math.min(now.cursor, done) });
  }, []);
  const { derived, cancel: cancelReplay } = useSlicedSimulation(state.scenario, state.schedule, state.cursor, keepReplayed);
  const enabledMoves = useMemo(() => (derived.kind === 'ok' ? derived.view.enabledMoves : []), [derived]);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  const [helpOpen, setHelpOpen] = useState(false);
  const page = useRef<HTMLElement | null>(null);
  const [exploreOpen, setExploreOpen] = useState(initialPage === 'explore');
  const explorer = useExplorer();
  const route: PlayPage = exploreOpen ? 'explore' : 'play';

  // The URL follows the state: replaceState (stepping does not flood the history), a moment
  // after the last change (replaceState is slow enough to cost frames while playing). A hash
  // this player did not write is a navigation whose hashchange has not been handled yet (a
  // link followed within that moment): it is left alone, or the page would stay here.
  const written = useRef(window.location.hash);
  useEffect(() => {
    const id = window.setTimeout(() => {
      if (window.location.hash !== written.current) return;
      const hash = playHash(state.scenario, state.schedule, state.cursor, BUILTIN_TEXTS, route, goal);
      if (hash === written.current) return;
      window.history.replaceState(null, '', hash);
      written.current = hash;
    }, URL_DELAY_MS);
    return () => window.clearTimeout(id);
  }, [state.scenario, state.schedule, state.cursor, route, goal]);

  /** The counterexample replaces the schedule; the cursor at its end shows the violation. */
  const loadSchedule = useCallback((scenario: string, schedule: readonly string[]) => {
    dispatch({ type: 'loadScenario', scenario, schedule, cursor: schedule.length });
  }, []);

  usePlayTimer(state, enabledMoves, dispatch);

  const run = useCallback(
    (name: CommandName) => {
      if (name === 'help') {
        setHelpOpen((o) => !o);
        return;
      }
      if (name === 'explore') {
        setExploreOpen(true);
        if (explorer.status.kind === 'running') explorer.cancel();
        else explorer.start(state.scenario);
        return;
      }
      if (name === 'counterexample') {
        const found = counterexample(explorer.status);
        if (found !== null) loadSchedule(found.scenario, found.schedule);
        return;
      }
      const action = commandAction(name, { enabledMoves });
      if (action !== null) dispatch(action);
    },
    [enabledMoves, explorer, state.scenario, loadSchedule],
  );
  // Keys one after another, each on the state the last one left (a held key, a burst).
  useShortcuts(useCommandQueue(run));
  useDockHeight('.play .controls');

  // Callbacks of the panels below the stage keep their identity across steps (the panels are
  // memoised: a step should not re-render what it does not change); they read the latest state.
  useEffect(() => {
    latest.current = state;
  });
  /** Another version of the scenario (a variant changed): the moves that still play are kept. */
  const replaceScenario = useCallback((scenario: string) => {
    const now = latest.current;
    const keep = playablePrefix(scenario, now.schedule);
    dispatch({
      type: 'loadScenario',
      scenario,
      schedule: now.schedule.slice(0, keep),
      cursor: Math.min(now.cursor, keep),
    });
  }, []);
  const changeVariant = useCallback(
    (key: string, value: VariantValue | undefined) => {
      const scenario = withVariant(latest.current.scenario, key, value);
      if (scenario !== null) replaceScenario(scenario);
    },
    [replaceScenario],
  );
  const loadScenario = useCallback((scenario: string) => dispatch({ type: 'loadScenario', scenario }), []);
  const closeHelp = useCallback(() => setHelpOpen(false), []);

  if (derived.kind === 'crash') {
    return <CrashScreen title="The simulator crashed" message={derived.message} replay={replayJson(state)} link={window.location.href} />;
  }

  const loader = (
    <ScenarioLoader key={state.scenario} current={state.scenario} onLoad={loadScenario} />
  );

  if (derived.kind === 'replaying') {
    return <ReplayProgress scenario={state.scenario} done={derived.done} total={derived.total} onCancel={cancelReplay} />;
  }
  // A long link's move that does not play: refused as a short link's is (route.ts playState).
  if (derived.kind === 'bad-move') {
    return <LinkErrorPanel error={{ kind: 'error', part: 'm', message: derived.message }} hash={window.location.hash} />;
  }

  if (derived.kind === 'error') {
    return (
      <main className="page">
        <header className="topbar">
          <h1>slub-lab</h1>
        </header>
        <p className="error" role="alert">
          This scenario cannot be played: {derived.message}
        </p>
        {loader}
      </main>
    );
  }

  const { view, outcome, lastEvent, events, listing } = derived;
  const playedMoves = goal === null ? [] : state.schedule.slice(0, state.cursor);
  const status = view.deadlock
    ? 'deadlock: contexts are unfinished and none can move'
    : view.finished
      ? 'finished'
      : `${enabledMoves.length} move${enabledMoves.length === 1 ? '' : 's'} enabled`;
  const animate = !reducedMotion && state.speed < NO_TWEEN_SPEED;

  return (
    <main className="page play" ref={page}>
      <PlayHeader
        name={view.scenarioName}
        links={{
          play: playHash(state.scenario, state.schedule, state.cursor, BUILTIN_TEXTS, 'play', goal),
          explore: playHash(state.scenario, state.schedule, state.cursor, BUILTIN_TEXTS, 'explore', goal),
          compare: compareHash(state.scenario, 0, BUILTIN_TEXTS),
        }}
        exploreOpen={exploreOpen}
        onHelp={() => setHelpOpen(true)}
      >
        <CacheChip view={view} />
      </PlayHeader>

      <ScenarioBar scenario={state.scenario} allocator={view.allocator} resolved={view.variant} onLoad={loadScenario} onMend={replaceScenario} onChange={changeVariant} />

      {goal !== null && (
        <Suspense fallback={<p className="goal muted">Loading the goal…</p>}>
          <GoalBanner goal={goal} view={view} outcome={outcome} scenario={state.scenario} moves={playedMoves} />
        </Suspense>
      )}

      <section className="controls" aria-label="Player controls">
        <div className="buttons">
          <button type="button" onClick={() => run('first')} disabled={!canStepBack(state)} aria-keyshortcuts="Home" >
            ⇤<span className="word"> Start</span>
          </button>
          <button type="button" onClick={() => run('prev')} disabled={!canStepBack(state)} aria-keyshortcuts="ArrowLeft">
            ←<span className="word"> Step back</span>
          </button>
          <button type="button" className="primary" onClick={() => run('togglePlay')} aria-keyshortcuts="Space" aria-pressed={state.playing}>
            {state.playing ? '⏸ Pause' : '▶ Play'}
          </button>
          <button type="button" className="forward" onClick={() => run('next')} disabled={!canStepForward(state, enabledMoves)} aria-keyshortcuts="ArrowRight">
            <span className="word">Step forward </span>→
          </button>
          <button type="button" onClick={() => run('last')} disabled={state.cursor >= state.schedule.length} aria-keyshortcuts="End" >
            <span className="word">End </span>⇥
          </button>
          <SpeedSelect speed={state.speed} dispatch={dispatch} />
          <span className="position" data-testid="position">
            move {view.position} of {state.schedule.length} · atomic step {view.steps}
          </span>
          <span className="status" data-testid="status">
            {status}
          </span>
        </div>
        <div className="moves-row">
          <div className="moves" role="group" aria-label="Enabled moves">
            <span className="moves-label">Moves:</span>
            {enabledMoves.length === 0 && <span className="muted">none</span>}
            {enabledMoves.map((move) => {
              const b = describeMove(move, view);
              const toEnd = b.kind === 'step' || b.kind === 'irq' ? describeRunToEnd(move, view) : null;
              const style = b.cpu === null ? undefined : { borderLeftColor: `var(--cpu${b.cpu % 8})` };
              return (
                <Fragment key={move}>
                  <button type="button" className={`move ${b.kind}`} data-move={move} style={style} onClick={() => dispatch({ type: 'applyMove', move })}>
                    {b.icon !== undefined && <Icon name={b.icon} />} {b.text}
                  </button>
                  {toEnd !== null && (
                    <button
                      type="button"
                      className={`move to-end ${b.kind}`}
                      data-to-end={toEnd.ctx}
                      title={toEnd.label}
                      style={style}
                      onClick={() => dispatch({ type: 'applyMoves', moves: movesToEnd(state.scenario, state.schedule.slice(0, state.cursor), toEnd.ctx) })}
                    >
                      {toEnd.icon !== undefined && <Icon name={toEnd.icon} />}
                      {toEnd.text}
                    </button>
                  )}
                </Fragment>
              );
            })}
          </div>
          <button
            type="button"
            className="explore-toggle"
            aria-expanded={exploreOpen}
            aria-controls="explorer"
            onClick={() => setExploreOpen((o) => !o)}
          >
            {/* "Explore…" on a phone (the words kept in its name): it shares the step buttons' row. */}
            {exploreOpen ? (
              <>
                Hide<span className="word"> the explorer</span>
              </>
            ) : (
              <>
                Explore<span className="word"> interleavings</span>…{explorer.status.kind === 'running' ? ' (searching)' : ''}
              </>
            )}
          </button>
        </div>
      </section>

      {exploreOpen && (
        <ExplorerPanel explorer={explorer} scenario={state.scenario} onLoad={loadSchedule} onClose={() => setExploreOpen(false)} />
      )}

      <p className="narration" aria-live="polite" data-testid="narration">
        {lastEvent === undefined ? (
          'Nothing has happened yet.'
        ) : (
          <>
            <code>{lastEvent.label}</code> {lastEvent.narration}
          </>
        )}
      </p>
      <ViolationBanner violations={view.violations} />

      <div className="stage-grid">
        <div className="col-left">

          <h2 className="sr-only">Code</h2>
          <ThreadPanes view={view} listing={listing} />
          <ListingView view={view} listing={listing} event={lastEvent} />
        </div>
        <div className="col-stage">
          <h2 className="sr-only">Stage</h2>
          <StageView
            view={view}
            event={lastEvent}
            selection={state.selection}
            step={state.cursor}
            animate={animate}
            onSelect={(name) => dispatch({ type: 'select', name })}
          />
        </div>
        <div className="col-right">
          <section className="panel" aria-labelledby="lines-h" tabIndex={0}>
            <h2 id="lines-h">Cache lines</h2>
            <LinesView view={view} event={lastEvent} step={state.cursor} animate={animate} />
            <p className="muted small">M/E filled, S outlined, I grey; a dot carries a line to the CPU that took it, with the step&apos;s cycles.</p>
          </section>
        </div>
      </div>

      <section className="timeline-panel" aria-label="Timeline">
        <TimelineView
          events={events}
          schedule={state.schedule}
          cursor={state.cursor}
          view={view}
          animate={animate}
          onGoto={(cursor) => dispatch({ type: 'goto', cursor })}
        />
        <ExportMenu panelKey={state.schedule.length} spec={exportSpec(state, view)} />
      </section>

      <div className="panels">
        <ViolationsPanel violations={view.violations} />
        <VarsPanel vars={view.vars} />
        <StatsPanel outcome={outcome} />
        {loader}
      </div>

      <HelpDialog open={helpOpen} onClose={closeHelp} />
    </main>
  );
}

/**
 * The parts of the page a step does not change, memoised (a part that re-renders has each of its
 * elements compared again by React's commit): the cache chip, the speed, the export buttons.
 */
const CacheChip = memo(
  function CacheChip({ view }: { view: View }) {
    if (view.allocator === 'slab') {
      return (
        <p className="cache-chip" data-testid="cache-chip" title="The cache and the SLAB variant this scenario runs (the era and variant are chosen at the top of the page)">
          SLAB · <code>{view.cache.name}</code> · {view.cache.objectSize} B objects · {view.cache.objectsPerSlab} per slab ·{' '}
          array limit {view.cpus[0]?.arrayCache?.limit ?? '?'}, batch {view.cpus[0]?.arrayCache?.batchcount ?? '?'} · grow{' '}
          <code>{view.variant.slabGrow}</code>
        </p>
      );
    }
    if (view.allocator === 'sheaves') {
      return (
        <p className="cache-chip" data-testid="cache-chip" title="The cache and Linux 7.0's per-CPU sheaves this scenario runs (the era and variant are chosen at the top of the page)">
          Linux 7.0 · <code>{view.cache.name}</code> · {view.cache.objectSize} B objects · {view.cache.objectsPerSlab} per slab · sheaves of{' '}
          {view.cpus[0]?.sheaves?.main.capacity ?? '?'} · lock <code>{view.variant.pcsLock}</code>
        </p>
      );
    }
    return (
      <p className="cache-chip" data-testid="cache-chip" title="The cache and the fast path this scenario runs (the era and variant are chosen at the top of the page)">
        <code>{view.cache.name}</code> · {view.cache.objectSize} B objects · {view.cache.objectsPerSlab} per slab · fast path{' '}
        <code>{view.variant.fastpath}</code>
      </p>
    );
  },
  (a, b) => chipKey(a.view) === chipKey(b.view),
);

/** What the cache chip shows of a view. */
function chipKey(v: View): string {
  const c = v.cpus[0];
  return JSON.stringify([v.allocator, v.cache, v.variant, c?.arrayCache?.limit, c?.arrayCache?.batchcount, c?.sheaves?.main.capacity]);
}

const SpeedSelect = memo(function SpeedSelect({ speed, dispatch }: { speed: number; dispatch: Dispatch<Action> }) {
  return (
    <label className="speed">
      <span className="word">Speed </span>
      <select value={speed} onChange={(e) => dispatch({ type: 'setSpeed', speed: Number(e.target.value) })}>
        {SPEEDS.map((s, i) => (
          <option key={s} value={i}>
            {s} moves/s
          </option>
        ))}
      </select>
    </label>
  );
});


/** What the playground exports: the frame on screen, the schedule played, its permalink. */
function exportSpec(state: PlayerState, view: View): ExportSpec {
  const title = `slub-lab · ${view.scenarioName}`;
  const hash = playHash(state.scenario, state.schedule, state.cursor, BUILTIN_TEXTS, 'play', null);
  return {
    withLinesAndTimeline: true,
    caption: () => ({
      title,
      position: `move ${state.cursor} of ${state.schedule.length} · atomic step ${view.steps}`,
      violations: view.violations.map((x) => `⚠ ${x.invariant} violated (atomic step ${x.step}): ${x.message}`),
    }),
    source: { scenario: state.scenario, schedule: state.schedule, title },
    name: `slub-lab-move-${state.cursor}`,
    link: hash,
    from: 0,
    to: state.schedule.length,
  };
}
