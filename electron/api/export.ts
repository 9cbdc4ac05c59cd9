/** export.csv: withdrawals, trades or transfers from the cache, filtered like the screens. */
import { exportCsv } from '../export/csv-export';
import type { ApiContext, HandlerGroup } from './context';

export function exportHandlers(ctx: ApiContext) {
  return {
    'export.csv': async (input) => {
      const { profile } = ctx.session.require();
      return exportCsv(ctx.store, profile.id, input, ctx.now());
    },
  } satisfies HandlerGroup<'export'>;
}
