import { createHmac, createSecretKey } from 'node:crypto';

/**
 * The interface's signature: HMAC-SHA256 with the secret key over totalParams (the query string
 * followed directly by the body, no separator), as lowercase hex.
 */
export function sign(secretKey: string, totalParams: string): string {
  return createHmac('sha256', secretKey).update(totalParams).digest('hex');
}

/**
 * A signing function bound to one secret; the key object is prepared once instead of per request.
 */
export function signerFor(secretKey: string): (totalParams: string) => string {
  const key = createSecretKey(Buffer.from(secretKey, 'utf8'));
  return (message) => createHmac('sha256', key).update(message).digest('hex');
}

/** totalParams for a request whose parameters are split between query string and body. */
export function totalParams(query: string, body: string): string {
  return query + body;
}

/**
 * Form/query encoding with a fixed key order (the order given), so the signed text is exactly the
 * text sent. Undefined values are left out; everything else is sent as its string form.
 */
export function encodeParams(
  params: Record<string, string | number | boolean | undefined>,
): string {
  const parts: string[] = [];
  for (const key of Object.keys(params)) {
    const value = params[key];
    if (value === undefined) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`);
  }
  return parts.join('&');
}
