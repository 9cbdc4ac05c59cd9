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
  installExactCopy(document);

  /** Selects `select(range)` and copies it: what the clipboard gets, or null when left alone. */
  function copy(select: (range: Range) => void): string | null {
    const range = document.createRange();
    select(range);
    const selection = document.getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    const written = new Map<string, string>();
    const event = new Event('copy', { bubbles: true, cancelable: true }) as ClipboardEvent;
    Object.defineProperty(event, 'clipboardData', {
      value: { setData: (type: string, data: string) => written.set(type, data) },
    });
    document.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(written.has('text/plain'));
    return written.get('text/plain') ?? null;
  }

  function figure(): { p: HTMLElement; value: HTMLElement; digits: Text } {
    document.body.innerHTML =
      '<p id="p">Value <span id="v" data-exact="306292.658592941234">306,292.66 USDT</span> now</p>';
    const value = document.getElementById('v')!;
    return { p: document.getElementById('p')!, value, digits: value.firstChild as Text };
  }

  it('writes the exact figures of a selection around them into the clipboard', () => {
    const { p } = figure();
    expect(copy((range) => range.selectNodeContents(p))).toBe('Value 306292.658592941234 USDT now');
  });

  it('writes the exact figure of a selection of the figure alone, or of its number', () => {
    const { value, digits } = figure();
    expect(copy((range) => range.selectNode(value))).toBe('306292.658592941234 USDT');
    expect(copy((range) => range.selectNodeContents(digits))).toBe('306292.658592941234 USDT');
    // The number without its unit, as a double click selects it.
    expect(
      copy((range) => {
        range.setStart(digits, 0);
        range.setEnd(digits, '306,292.66'.length);
      }),
    ).toBe('306292.658592941234');
  });

  it('leaves a selection of part of the number as it is', () => {
    const { digits } = figure();
    expect(
      copy((range) => {
        range.setStart(digits, 4);
        range.setEnd(digits, '306,292.66'.length);
      }),
    ).toBeNull();
  });
});
