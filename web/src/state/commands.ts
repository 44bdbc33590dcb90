// The learner's commands: one table for the buttons' shortcuts, the keyboard handler, the `?`
// help and the embed's message API (design.md §6), so none of them can disagree. A command turns
// into a player Action (or, for `help`, into something the page shows).
import type { Action } from './player';

export type CommandName =
  | 'prev'
  | 'next'
  | 'togglePlay'
  | 'play'
  | 'pause'
  | 'first'
  | 'last'
  | 'goto'
  | 'faster'
  | 'slower'
  | 'explore'
  | 'counterexample'
  | 'help';

export interface Command {
  readonly name: CommandName;
  /** `KeyboardEvent.key` values (none: not on the keyboard). */
  readonly keys: readonly string[];
  /** How the help dialog writes the keys. */
  readonly keyText: string;
  readonly help: string;
}

export const COMMANDS: readonly Command[] = [
  { name: 'prev', keys: ['ArrowLeft', 'k'], keyText: '← or k', help: 'Step back one move' },
  { name: 'next', keys: ['ArrowRight', 'j'], keyText: '→ or j', help: 'Step forward one move (the kept move, else the first enabled one)' },
  { name: 'togglePlay', keys: [' ', 'p'], keyText: 'Space or p', help: 'Play or pause' },
  { name: 'first', keys: ['Home'], keyText: 'Home', help: 'Go to the start' },
  { name: 'last', keys: ['End'], keyText: 'End', help: 'Go to the last kept move' },
  { name: 'faster', keys: ['+', '='], keyText: '+', help: 'Play faster' },
  { name: 'slower', keys: ['-', '_'], keyText: '−', help: 'Play slower' },
  { name: 'explore', keys: ['e'], keyText: 'e', help: 'Explore every interleaving within the bounds (opens the explorer); again to cancel' },
  { name: 'counterexample', keys: ['c'], keyText: 'c', help: "Load the explorer's counterexample into the stepper, at the violation" },
  { name: 'help', keys: ['?'], keyText: '?', help: 'Show or hide this list' },
  { name: 'play', keys: [], keyText: '', help: 'Play (embed message API)' },
  { name: 'pause', keys: [], keyText: '', help: 'Pause (embed message API)' },
  { name: 'goto', keys: [], keyText: '', help: 'Go to a move (embed message API, with `step`)' },
];

const BY_KEY = new Map(COMMANDS.flatMap((c) => c.keys.map((k) => [k, c.name] as const)));

export function commandForKey(key: string): CommandName | undefined {
  return BY_KEY.get(key);
}

/**
 * What the command does to the player (null for those the page handles: `help`, and the
 * explorer's `explore` and `counterexample`, which need the search and its result).
 */
export function commandAction(
  name: CommandName,
  context: { readonly enabledMoves: readonly string[]; readonly step?: number },
): Action | null {
  switch (name) {
    case 'prev':
      return { type: 'stepBack' };
    case 'next':
      return { type: 'stepForward', enabledMoves: context.enabledMoves };
    case 'togglePlay':
      return { type: 'togglePlay' };
    case 'play':
      return { type: 'play' };
    case 'pause':
      return { type: 'pause' };
    case 'first':
      return { type: 'first' };
    case 'last':
      return { type: 'last' };
    case 'goto':
      return context.step === undefined ? null : { type: 'goto', cursor: context.step };
    case 'faster':
      return { type: 'faster' };
    case 'slower':
      return { type: 'slower' };
    case 'help':
    case 'explore':
    case 'counterexample':
      return null;
  }
}

/** The embed's inbound message (design.md §6); anything else is null and ignored. */
export interface EmbedCommand {
  readonly command: 'next' | 'prev' | 'goto' | 'play' | 'pause';
  readonly step?: number;
}

export function parseEmbedMessage(data: unknown): EmbedCommand | null {
  if (data === null || typeof data !== 'object') return null;
  const m = data as Record<string, unknown>;
  if (m.type !== 'slub-lab:command') return null;
  const command = m.command;
  if (command !== 'next' && command !== 'prev' && command !== 'goto' && command !== 'play' && command !== 'pause') {
    return null;
  }
  if (command === 'goto') {
    const step = m.step;
    if (typeof step !== 'number' || !Number.isInteger(step) || step < 0) return null;
    return { command, step };
  }
  return { command };
}
