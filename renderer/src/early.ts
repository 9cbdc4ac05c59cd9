/**
 * The first screen's calls, sent before React renders: the boot data the shell needs, and, when
 * the portfolio opens, its total. The total is what a start waits for; asked for here, it arrives
 * with the boot data instead of one round trip after it. The answers land in the query cache,
 * where the components that ask the same calls find them (or the calls still on their way).
 */
import { parseRoute } from './lib/router';
import { prefetchBridge, startDataLayer } from './lib/query';

export function sendEarlyCalls(): void {
  // Change events are watched from now on, so one that arrives before a screen listens still
  // marks the answer it changes as stale.
  startDataLayer();
  // The total first: answers come back in about the order asked, and when it is there before the
  // boot data, the portfolio's first render (with the shell) already shows it.
  if (parseRoute(window.location.hash).screen === 'portfolio') prefetchBridge('portfolio.summary');
  prefetchBridge('app.status');
  prefetchBridge('settings.get');
  prefetchBridge('profiles.list');
}
