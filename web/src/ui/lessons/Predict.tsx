// A step's prediction question: a small form asked before the step's moves play. The answer is
// checked against the lesson's (which the model proved: wasm-core/lessons/src/replay.rs replays
// the lesson and asserts the answer's claims); right or wrong is said in words.
import { useId, useState, type SyntheticEvent } from 'react';
import type { LessonPredict } from '../../lessons';

/** A choice inside a sentence: its own closing full stop dropped (else "…asked for.; the model"). */
export function withoutFullStop(html: string): string {
  return html.replace(/\.((?:\s|<\/[a-z]+>)*)$/i, '$1');
}

interface Props {
  predict: LessonPredict;
  /** The choice given earlier (from the progress), or undefined. */
  answered: number | undefined;
  /** The learner skipped the question this visit. */
  skipped: boolean;
  onAnswer: (choice: number) => void;
  onSkip: () => void;
  onAgain: () => void;
}

export function Predict({ predict, answered, skipped, onAnswer, onSkip, onAgain }: Props) {
  const id = useId();
  const [chosen, setChosen] = useState<number | null>(null);
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    if (chosen !== null) onAnswer(chosen);
  };

  if (answered === undefined && !skipped) {
    return (
      <form className="predict" onSubmit={submit} data-testid="predict">
        <fieldset>
          <legend>
            <span className="predict-tag">Predict</span>{' '}
            <span dangerouslySetInnerHTML={{ __html: predict.questionHtml }} />
          </legend>
          {predict.choicesHtml.map((html, i) => (
            <label key={i} className="choice">
              <input
                type="radio"
                name={`${id}-choice`}
                value={i}
                checked={chosen === i}
                onChange={() => setChosen(i)}
              />{' '}
              <span dangerouslySetInnerHTML={{ __html: html }} />
            </label>
          ))}
        </fieldset>
        <div className="buttons">
          <button type="submit" className="primary" disabled={chosen === null}>
            Check my answer
          </button>
          <button type="button" onClick={onSkip}>
            Skip: show me
          </button>
        </div>
        <p className="muted small">The stage shows the state before this step; your answer plays its moves.</p>
      </form>
    );
  }

  const right = answered === predict.answer;
  const answerHtml = predict.choicesHtml[predict.answer] ?? '';
  return (
    <section className={`predict answered ${answered === undefined ? 'skipped' : right ? 'right' : 'wrong'}`} aria-labelledby={`${id}-q`} data-testid="predict">
      <p id={`${id}-q`} className="predict-question">
        <span className="predict-tag">Predict</span> <span dangerouslySetInnerHTML={{ __html: predict.questionHtml }} />
      </p>
      <p className="verdict" role="status" data-testid="verdict">
        {answered === undefined ? (
          <>
            <strong>Skipped.</strong> The answer: <span dangerouslySetInnerHTML={{ __html: answerHtml }} />
          </>
        ) : right ? (
          <>
            <strong>✓ Right:</strong> <span dangerouslySetInnerHTML={{ __html: answerHtml }} />
          </>
        ) : (
          <>
            <strong>✗ Not this one.</strong> You chose{' '}
            <span dangerouslySetInnerHTML={{ __html: withoutFullStop(predict.choicesHtml[answered] ?? '') }} />; the model says:{' '}
            <span dangerouslySetInnerHTML={{ __html: answerHtml }} />
          </>
        )}
      </p>
      {predict.explainHtml !== null && <p className="explain" dangerouslySetInnerHTML={{ __html: predict.explainHtml }} />}
      <button
        type="button"
        className="link-button"
        onClick={() => {
          setChosen(null);
          onAgain();
        }}
      >
        Ask me again
      </button>
    </section>
  );
}
