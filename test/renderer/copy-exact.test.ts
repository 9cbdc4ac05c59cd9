// @vitest-environment jsdom
/**
 * A copy of rounded figures carries their exact ones: the pure replacement, and the listener on a
 * real DOM selection holding a value the screen rounded.
 */
import { describe, expect, it } from 'vitest';
import { exactCopyText, installExactCopy } from '../../renderer/src/lib/copy-exact';

describe('exactCopyText', () => {
  it('replaces each shown figure by its exact one, in order, keeping units and signs', () => {
    const text = 'BTC\t1.5\t90,123.46 USDT\t+1,234.57\nETH\t2\t90,123.46 USDT\t-0.01';
    const out = exactCopyText(text, [
      { shown: '90,123.46 USDT', exact: '90123.456789' },
      { shown: '+1,234.57', exact: '1234.5678' },
      { shown: '90,123.46 USDT', exact: '90123.4649' },
      { shown: '-0.01', exact: '-0.0149' },
    ]);
    expect(out).toBe('BTC\t1.5\t90123.456789 USDT\t+1234.5678\nETH\t2\t90123.4649 USDT\t-0.0149');
  });

  it('leaves the text alone where a figure is not found', () => {
    expect(exactCopyText('Total 5', [{ shown: '7.00', exact: '7.001' }])).toBe('Total 5');
  });
});

describe('installExactCopy', () => {
  it('writes the exact figures of a selection into the clipboard', () => {
    document.body.innerHTML =
      '<p id="p">Value <span data-exact="306292.658592941234">306,292.66 USDT</span> now</p>';
    installExactCopy(document);
    const range = document.createRange();
    range.selectNodeContents(document.getElementById('p')!);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const written = new Map<string, string>();
    const event = new Event('copy', { bubbles: true, cancelable: true }) as ClipboardEvent;
    Object.defineProperty(event, 'clipboardData', {
      value: { setData: (type: string, data: string) => written.set(type, data) },
    });
    document.dispatchEvent(event);
    expect(written.get('text/plain')).toBe('Value 306292.658592941234 USDT now');
    expect(event.defaultPrevented).toBe(true);
  });
});
