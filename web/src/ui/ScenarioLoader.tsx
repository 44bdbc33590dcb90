import { useId, useState } from 'react';
import { validateScenario } from '../sim';

interface Props {
  current: string;
  onLoad: (scenario: string) => void;
}

/** Paste a scenario (DESIGN §4 JSON) and play it; a bad one is refused with the reason. */
export function ScenarioLoader({ current, onLoad }: Props) {
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

  return (
    <details className="loader">
      <summary>Load a scenario</summary>
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
      {error !== null && (
        <p id={`${id}-error`} className="error" role="alert">
          {error}
        </p>
      )}
    </details>
  );
}
