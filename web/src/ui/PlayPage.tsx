// The playground and the explorer's page, from its route: a chunk of its own with the player,
// the stage and the simulator's bridge, so the front door and the lesson prose fetch none of it
// (App.tsx loads it on demand; main.tsx starts it at once when the first page is the player).
import type { Route } from '../state/url';
import { LinkErrorPanel } from './LinkErrorPanel';
import { Player } from './Player';
import { playState } from './route';

export function PlayPage({ route, hash }: { route: Extract<Route, { kind: 'play' }>; hash: string }) {
  const state = playState(route);
  if ('kind' in state) return <LinkErrorPanel error={state} hash={hash} />;
  return <Player key={hash} initial={state} page={route.page} goal={route.goal} />;
}
