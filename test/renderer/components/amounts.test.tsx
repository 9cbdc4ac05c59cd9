// @vitest-environment jsdom
/**
 * The amount components: a stated amount with every digit whatever the asset's market step (the
 * context says 1 place for XRP), a computed value and price rounded with the exact figure in the
 * tooltip and data-exact, and in privacy mode neither digits nor the exact figure anywhere.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Amount, Price, Value } from '../../../renderer/src/components/common';
import { SETTINGS, appContext, renderInApp } from '../support/component';

function show(privacyMode: boolean) {
  const { value } = appContext({
    settings: { ...SETTINGS, privacyMode },
    precisionOf: (asset) => (asset === 'xrp' ? 1 : 8),
  });
  renderInApp(
    <>
      <Amount value="0.25000000" asset="xrp" unit testId="fee" />
      <Amount value="-646.25" asset="xrp" signed testId="change" />
      <Value value="306292.658592941234" quote="usdt" testId="value" />
      <Price value="0.52291234" quote="usdt" unit={false} testId="price" />
    </>,
    value,
  );
}

describe('amounts on screen', () => {
  it('shows stated amounts whole and computed ones rounded with their exact figure', () => {
    show(false);
    expect(screen.getByTestId('fee').textContent).toBe('0.25 XRP');
    expect(screen.getByTestId('change').textContent).toBe('-646.25');
    const value = screen.getByTestId('value');
    expect(value.textContent).toBe('306,292.66 USDT');
    expect(value.title).toBe('306292.658592941234 USDT');
    expect(value.dataset.exact).toBe('306292.658592941234');
    const price = screen.getByTestId('price');
    expect(price.textContent).toBe('0.522912');
    expect(price.title).toBe('0.52291234 USDT');
  });

  it('hides every digit in privacy mode, the exact figure too', () => {
    show(true);
    for (const id of ['fee', 'change', 'value', 'price']) {
      const element = screen.getByTestId(id);
      expect(element.textContent).toBe('••••');
      expect(element.title).toBe('');
      expect(element.dataset.exact).toBeUndefined();
    }
  });
});
