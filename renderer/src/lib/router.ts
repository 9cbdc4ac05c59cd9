/** Hash routes: "#/portfolio", "#/markets/btcusdt". No router package: a route is a small value. */

export const screens = [
  'portfolio',
  'funds',
  'withdrawals',
  'deposit',
  'sub-accounts',
  'orders',
  'markets',
  'activity',
  'alerts',
  'settings',
  'onboarding',
] as const;

export type ScreenName = (typeof screens)[number];

export interface Route {
  screen: ScreenName;
  /** The symbol of a market page ("#/markets/btcusdt"). */
  symbol?: string;
  /** The asset of an asset page, opened from a Funds row ("#/funds/btc"). */
  asset?: string;
  /** The profile whose editor Settings opens ("#/settings/profile/<id>"). */
  profile?: string;
  /** The Portfolio of every profile together ("#/portfolio/all"). */
  all?: true;
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean);
  const [first, second, third] = parts;
  const screen = (screens as readonly string[]).includes(first ?? '')
    ? (first as ScreenName)
    : 'portfolio';
  if (screen === 'portfolio' && second === 'all') return { screen, all: true };
  if (screen === 'markets' && second && /^[a-z0-9]{2,24}$/i.test(second)) {
    return { screen, symbol: second.toLowerCase() };
  }
  if (screen === 'funds' && second && /^[a-z0-9]{1,20}$/i.test(second)) {
    return { screen, asset: second.toLowerCase() };
  }
  if (screen === 'settings' && second === 'profile' && third && /^[\w-]{1,64}$/.test(third)) {
    return { screen, profile: third };
  }
  return { screen };
}

export function routeHash(route: Route): string {
  if (route.profile) return `#/${route.screen}/profile/${route.profile}`;
  if (route.all) return `#/${route.screen}/all`;
  const detail = route.symbol ?? route.asset;
  return detail ? `#/${route.screen}/${detail}` : `#/${route.screen}`;
}
