/**
 * ledger.*: profit and loss, net worth, an asset's page, the value history, the inferred entries,
 * the cost method and the reports, and every profile together (ledger/all-profiles.ts), from the ledger's figures (electron/ledger/figures.ts: the
 * ledger built out of the store, candles for the prices of the time fetched in the background).
 */
import type { ApiContext, HandlerGroup } from './context';

export function ledgerHandlers(ctx: ApiContext) {
  const { ledgerFigures: figures } = ctx;
  return {
    'ledger.summary': async (input) => figures.summary(ctx.session.require(), input),
    'ledger.netWorth': async (input) => figures.netWorth(ctx.session.require(), input),
    'ledger.asset': async (input) => figures.asset(ctx.session.require(), input),
    'ledger.history': async (input) => figures.history(ctx.session.require(), input),
    'ledger.inferred': async () => figures.inferred(ctx.session.require()),
    'ledger.annotate': async (input) => figures.annotate(ctx.session.require(), input),
    'ledger.review': async (input) => figures.review(ctx.session.require(), input),
    'ledger.settings': async () => figures.settingsOf(ctx.session.require().profile.id),
    'ledger.setMethod': async ({ method }) =>
      figures.setMethod(ctx.session.require().profile.id, method),
    'ledger.taxReport': async (input) => figures.taxReport(ctx.session.require(), input),
    'ledger.koinlyExport': async () => figures.koinlyExport(ctx.session.require()),
    'ledger.openExportsFolder': async () => figures.openExportsFolder(),
    'ledger.allProfiles': async (input) => ctx.allProfiles.summary(input),
    'ledger.allProfilesHistory': async (input) => ctx.allProfiles.history(input),
  } satisfies HandlerGroup<'ledger'>;
}
