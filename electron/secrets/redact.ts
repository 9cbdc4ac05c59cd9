/** Removes secrets from text before it is logged. */

export const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of each secret in `text` (also its URL-encoded and JSON-escaped
 * forms, as secrets travel in query strings and bodies) with '[redacted]'. Empty strings are
 * ignored; longer secrets are replaced first so one secret containing another leaves no tail.
 */
export function redact(text: string, secrets: readonly string[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    forms.add(secret);
    forms.add(encodeURIComponent(secret));
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  let result = text;
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    result = result.split(form).join(REDACTED);
  }
  return result;
}
