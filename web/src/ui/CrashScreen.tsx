import { useState } from 'react';

interface Props {
  title: string;
  message: string;
  /** The scenario and moves that led here, to copy into a bug report. */
  replay?: string;
  /** A permalink that replays the state. */
  link?: string;
}

/** Shown instead of the page when the simulator panics (a bug, not a learner's mistake). */
export function CrashScreen({ title, message, replay, link }: Props) {
  const [copied, setCopied] = useState(false);
  return (
    <main className="crash" role="alert" aria-labelledby="crash-title">
      <h1 id="crash-title">{title}</h1>
      <p>This is a bug in slub-lab. The message was:</p>
      <pre className="crash-message">{message}</pre>
      {link !== undefined && (
        <p>
          Replay link: <a href={link}>{link.length > 80 ? `${link.slice(0, 80)}…` : link}</a>
        </p>
      )}
      {replay !== undefined && (
        <>
          <label htmlFor="crash-replay">Replay (the scenario and the moves played):</label>
          <textarea id="crash-replay" readOnly rows={10} value={replay} />
          <button
            type="button"
            onClick={() => {
              navigator.clipboard.writeText(replay).then(
                () => setCopied(true),
                () => setCopied(false),
              );
            }}
          >
            {copied ? 'Copied' : 'Copy the replay'}
          </button>
        </>
      )}
      <button type="button" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </main>
  );
}
