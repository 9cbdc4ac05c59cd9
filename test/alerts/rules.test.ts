/**
 * The rules of firing, as pure functions: the side of a line (exact, past what a float tells
 * apart), a move in percent, and the verdict on a
 * change of side with cool-downs counted on a manual clock.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../electron/core/clock';
import {
  changePercent,
  lineSide,
  moveSide,
  rangeReaches,
  verdict,
  type FiringState,
} from '../../electron/alerts/rules';

describe('sides of a line', () => {
  it('counts reaching the line as having crossed it', () => {
    expect(lineSide('above', '100', '100')).toBe('above');
    expect(lineSide('above', '99.99', '100')).toBe('below');
    expect(lineSide('below', '100', '100')).toBe('below');
    expect(lineSide('below', '100.01', '100')).toBe('above');
    expect(lineSide('above', '007.50', '7.5')).toBe('above');
    expect(lineSide('above', '61999.99999999', '62000')).toBe('below');
    // Beyond what a float can tell apart.
    expect(lineSide('below', '12345678901234567.000000000001', '12345678901234567')).toBe('above');
  });

  it('finds a line inside a candle range', () => {
    expect(rangeReaches('above', '95', '100', '100')).toBe(true);
    expect(rangeReaches('above', '95', '99.9', '100')).toBe(false);
    expect(rangeReaches('below', '90', '99', '90')).toBe(true);
    expect(rangeReaches('below', '90.1', '99', '90')).toBe(false);
  });

  it('measures a move exactly, either way', () => {
    const up = changePercent('105', '100')!;
    expect(up.toFixed()).toBe('5');
    expect(moveSide('up', up, '5')).toBe('beyond');
    expect(moveSide('down', up, '5')).toBe('within');
    expect(moveSide('either', up, '5')).toBe('beyond');
    const down = changePercent('94.99', '100')!;
    expect(down.toFixed()).toBe('-5.01');
    expect(moveSide('down', down, '5')).toBe('beyond');
    expect(moveSide('up', down, '5')).toBe('within');
    expect(moveSide('either', down, '5.02')).toBe('within');
    expect(changePercent('1', '0')).toBeNull();
  });
});

describe('verdict', () => {
  const state = (patch: Partial<FiringState> = {}): FiringState => ({
    target: 'above',
    lastSide: 'below',
    repeat: false,
    cooldownMs: 0,
    lastFiredAt: null,
    spent: false,
    ...patch,
  });

  it('fires on a crossing only: not on a first sight, not on the same side again', () => {
    const clock = new ManualClock();
    expect(verdict(state(), 'above', clock.now())).toBe('fire');
    expect(verdict(state({ lastSide: null }), 'above', clock.now())).toBe('none');
    expect(verdict(state({ lastSide: 'above' }), 'above', clock.now())).toBe('none');
    expect(verdict(state({ lastSide: 'above' }), 'below', clock.now())).toBe('none');
  });

  it('holds a spent one-shot alert, and a repeating one inside its cool-down', () => {
    const clock = new ManualClock();
    expect(verdict(state({ spent: true }), 'above', clock.now())).toBe('held');
    const repeating = state({ repeat: true, cooldownMs: 60_000, lastFiredAt: clock.now() });
    clock.advance(59_999);
    expect(verdict(repeating, 'above', clock.now())).toBe('held');
    clock.advance(1);
    expect(verdict(repeating, 'above', clock.now())).toBe('fire');
  });
});
