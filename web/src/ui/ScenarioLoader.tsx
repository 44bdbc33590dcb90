import { memo, useId, useState } from 'react';
import { validateScenario } from '../sim';

interface Props {
  current: string;
  onLoad: (scenario: string) => void;
}

/** `bad scenario: tasks[0].ops[0].var: why` → the JSON path and the reason, shown apart. */
export function splitScenarioError(message: string): { path: string | null; why: string } {
  const m = /^bad scenario: ([A-Za-z_][\w.[\]]*): (.*)$/s.exec(message);
  if (m === null) return { path: null, why: message.replace(/^bad scenario: /, '') };
  return { path: m[1] ?? null, why: m[2] ?? message };
}

/**
 * Edit the scenario as JSON (design.md §4); a bad one is refused with its path. The built-in
 * scenarios are picked at the top of the page (ScenarioBar).
 */
export const ScenarioLoader = memo(function ScenarioLoader({ current, onLoad }: Props) {
  const [text, setText] = useState(current);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const load = () => {
    try {
      validateScenario(text);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return;
    }
    setError(null);
    onLoad(text);
  };
  const parts = error === null ? null : splitScenarioError(error);

  return (
    <section className="loader panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Scenario</h2>
      <details>
        <summary>Edit the scenario JSON</summary>
        <label htmlFor={`${id}-text`}>Scenario JSON</label>
        <textarea
          id={`${id}-text`}
          rows={14}
          spellCheck={false}
          value={text}
          aria-invalid={error !== null}
          aria-describedby={error !== null ? `${id}-error` : undefined}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="buttons">
          <button type="button" onClick={load}>
            Load
          </button>
        </div>
        {parts !== null && (
          <p id={`${id}-error`} className="error" role="alert" data-testid="scenario-error">
            {parts.path !== null && (
              <>
                At <code>{parts.path}</code>:{' '}
              </>
            )}
            {parts.why}
          </p>
        )}
      </details>
    </section>
  );
});
