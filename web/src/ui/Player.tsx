import { useCallback, useEffect, useMemo, useReducer } from 'react';
import {
  canStepBack,
  canStepForward,
  initialState,
  perform,
  replayJson,
  SHORTCUTS,
} from '../state/player';
import { CrashScreen } from './CrashScreen';
import {
  ContextsPanel,
  CpusPanel,
  NodesPanel,
  SlabsPanel,
  StatsPanel,
  VarsPanel,
  ViolationsPanel,
} from './panels';
import { ScenarioLoader } from './ScenarioLoader';
import { useSimulation } from './useSimulation';

function isTextField(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))
  );
}

export function Player({ initialScenario }: { initialScenario: string }) {
  const [state, dispatch] = useReducer(perform, initialScenario, initialState);
  const derived = useSimulation(state);
  const enabledMoves = useMemo(
    () => (derived.kind === 'ok' ? derived.view.enabledMoves : []),
    [derived],
  );

  const stepBack = useCallback(() => dispatch({ type: 'stepBack' }), []);
  const stepForward = useCallback(
    () => dispatch({ type: 'stepForward', enabledMoves }),
    [enabledMoves],
  );

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || isTextField(e.target)) return;
      const action = SHORTCUTS[e.key];
      if (action === undefined) return;
      e.preventDefault();
      if (action === 'stepBack') stepBack();
      else stepForward();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stepBack, stepForward]);

  if (derived.kind === 'crash') {
    return (
      <CrashScreen
        title="The simulator crashed"
        message={derived.message}
        replay={replayJson(state)}
      />
    );
  }

  const loader = (
    <ScenarioLoader
      current={state.scenario}
      onLoad={(scenario) => dispatch({ type: 'loadScenario', scenario })}
    />
  );

  if (derived.kind === 'error') {
    return (
      <main className="page">
        <header>
          <h1>slub-lab</h1>
        </header>
        <p className="error" role="alert">
          This scenario cannot be played: {derived.message}
        </p>
        {loader}
      </main>
    );
  }

  const { view, outcome, lastEvent } = derived;
  const status = view.deadlock
    ? 'deadlock: contexts are unfinished and none can move'
    : view.finished
      ? 'finished'
      : `${enabledMoves.length} move${enabledMoves.length === 1 ? '' : 's'} enabled`;

  return (
    <main className="page">
      <header>
        <h1>
          slub-lab <span className="scenario-name">{view.scenarioName}</span>
        </h1>
      </header>

      <section className="controls" aria-label="Controls">
        <div className="buttons">
          <button
            type="button"
            onClick={stepBack}
            disabled={!canStepBack(state)}
            aria-keyshortcuts="ArrowLeft"
          >
            ← Step back
          </button>
          <button
            type="button"
            onClick={stepForward}
            disabled={!canStepForward(state, enabledMoves)}
            aria-keyshortcuts="ArrowRight"
          >
            Step forward →
          </button>
          <span className="position" data-testid="position">
            move {view.position} of {state.schedule.length} · step {view.steps}
          </span>
          <span className="status" data-testid="status">
            {status}
          </span>
        </div>
        <div className="moves" role="group" aria-label="Enabled moves">
          <span className="moves-label">Moves:</span>
          {enabledMoves.map((move) => (
            <button
              key={move}
              type="button"
              className="move"
              onClick={() => dispatch({ type: 'applyMove', move })}
            >
              {move}
            </button>
          ))}
        </div>
        <p className="narration" aria-live="polite" data-testid="narration">
          {lastEvent === undefined ? (
            'Nothing has happened yet.'
          ) : (
            <>
              <code>{lastEvent.label}</code> {lastEvent.narration}
            </>
          )}
        </p>
      </section>

      <div className="panels">
        <CpusPanel cpus={view.cpus} />
        <ContextsPanel contexts={view.contexts} />
        <SlabsPanel slabs={view.slabs} />
        <NodesPanel nodes={view.nodes} />
        <VarsPanel vars={view.vars} />
        <ViolationsPanel violations={view.violations} />
        <StatsPanel outcome={outcome} />
      </div>

      {loader}
    </main>
  );
}
