/**
 * The first screen's calls, sent before React renders (see lib/prefetch): the boot data the shell
 * needs, and, when the portfolio opens, its total. The total is what a start waits for; asked for
 * here, it arrives with the boot data instead of one round trip after it.
 */
import type { EventName } from '../../shared/contract';
import type { DataKind } from '../../shared/types';
import { bridge } from './lib/bridge';
import { prefetch } from './lib/prefetch';
import { parseRoute } from './lib/router';

/** What the shell's boot data depends on (App reloads it on these). */
export const bootKinds: DataKind[] = ['profiles', 'settings'];
export const bootEvents: EventName[] = ['connection.state'];
/** What the portfolio's total depends on. */
export const summaryKinds: DataKind[] = ['portfolio', 'funds', 'prices', 'settings'];

export function loadBoot() {
  const api = bridge();
  return Promise.all([api.app.status(), api.settings.get(), api.profiles.list()]).then(
    ([status, settings, profiles]) => ({ status, settings, profiles }),
  );
}

export function sendEarlyCalls(): void {
  // The total first: answers come back in about the order asked, and when it is there before the
  // boot data, the portfolio's first render (with the shell) already shows it.
  if (parseRoute(window.location.hash).screen === 'portfolio') {
    prefetch('portfolio.summary', () => bridge().portfolio.summary(), { kinds: summaryKinds });
  }
  prefetch('boot', loadBoot, { kinds: bootKinds, events: bootEvents });
}
