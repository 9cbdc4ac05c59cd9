/**
 * The Content-Security-Policy of every page the app serves: the Electron window (header set by
 * the shell) and browser mode (header set by electron/serve). Nothing inline, nothing remote,
 * no frames, no plugins. The renderer's index.html carries a compatible <meta> policy as well.
 */

/** The policy, with extra connect-src sources (browser mode adds its exact WebSocket origin). */
export function contentSecurityPolicy(extraConnectSources: readonly string[] = []): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'none'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", 'data:']],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...extraConnectSources]],
    ['manifest-src', ["'self'"]],
    ['worker-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['frame-src', ["'none'"]],
    ['child-src', ["'none'"]],
    ['base-uri', ["'none'"]],
    ['form-action', ["'none'"]],
    ['frame-ancestors', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/** The desktop window's policy: everything comes from the app's own app:// origin. */
export const desktopContentSecurityPolicy = contentSecurityPolicy();
