// The D3 the views use. `d3` declares itself free of side effects, so importing `select` from it
// lets the bundler drop d3-transition, whose import is what adds `.transition()` and
// `.interrupt()` to selections: import both modules directly, the transition one for its effect.
import 'd3-transition';

export { select, type Selection } from 'd3-selection';
