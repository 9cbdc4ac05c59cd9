import { describe, expect, it } from 'vitest';
import { redact, REDACTED } from '../../electron/secrets';

describe('redact', () => {
  it('removes every occurrence of each secret', () => {
    const line = 'GET /sapi/v1/funds key=AbCdEf secret=Zx9/+= again AbCdEf';
    expect(redact(line, ['AbCdEf', 'Zx9/+='])).toBe(
      `GET /sapi/v1/funds key=${REDACTED} secret=${REDACTED} again ${REDACTED}`,
    );
  });

  it('also removes URL-encoded and JSON-escaped forms', () => {
    const secret = 'a/b+c"d';
    const text = `q=${encodeURIComponent(secret)} body=${JSON.stringify({ s: secret })}`;
    const out = redact(text, [secret]);
    expect(out).not.toContain(encodeURIComponent(secret));
    expect(out).not.toContain('a/b+c');
    expect(out).toBe(`q=${REDACTED} body={"s":"${REDACTED}"}`);
  });

  it('replaces a longer secret that contains a shorter one as a whole', () => {
    expect(redact('x=abcdef1234', ['abcd', 'abcdef1234'])).toBe(`x=${REDACTED}`);
  });

  it('ignores empty secrets and leaves text without secrets unchanged', () => {
    expect(redact('nothing to hide', ['', 'absent'])).toBe('nothing to hide');
  });
});
