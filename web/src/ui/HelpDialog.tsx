// The `?` dialog, listing the shortcuts from the one command table (useShortcuts.ts runs it).
import { memo, useEffect, useRef } from 'react';
import { COMMANDS } from '../state/commands';

/** The playground's keys, from the command table (a page with other keys passes its own). */
const PLAY_KEYS = COMMANDS.filter((c) => c.keys.length > 0);

export const HelpDialog = memo(function HelpDialog({
  open,
  onClose,
  keys = PLAY_KEYS,
}: {
  open: boolean;
  onClose: () => void;
  keys?: readonly { keyText: string; help: string }[];
}) {
  const ref = useRef<HTMLDialogElement | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (d === null) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} className="help" aria-labelledby="help-title" onClose={onClose}>
      <h2 id="help-title">Keyboard shortcuts</h2>
      <table>
        <tbody>
          {keys.map((c) => (
            <tr key={c.keyText}>
              <th scope="row">
                <kbd>{c.keyText}</kbd>
              </th>
              <td>{c.help}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small">
        Every button is also reachable with Tab{keys === PLAY_KEYS ? '; the timeline is a slider' : ''}.
      </p>
      <button type="button" onClick={onClose} autoFocus>
        Close
      </button>
    </dialog>
  );
});
