import { describe, expect, it } from 'vitest';
import { encodeParams, sign, signerFor, totalParams } from '../../electron/exchange/sign';

const SECRET = 'NhqPtmdSJYdKjVHjA7PZj4Mge3R5YNiP1e3UZjInClVN65XAbvqqM6A7H5fATj0j';

describe('sign', () => {
  it('signs all parameters in one place (the interface vector)', () => {
    const message =
      'symbol=ltcbtc&side=buy&type=limit&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(sign(SECRET, message)).toBe(
      'a03b8ba3ae3bad7b78fcec42224967e8cc19faec1a9d05c1f46200b9c5cab360',
    );
  });

  it('signs query string + body concatenated without a separator (the mixed vector)', () => {
    const query = 'symbol=ltcbtc&side=buy&type=limit';
    const body = 'quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(sign(SECRET, totalParams(query, body))).toBe(
      'e8dc96bc41383d42f5dca9af18fdec5017555ba53256b55408c4e7cbbea79225',
    );
  });

  it('encodes parameters in the given order, leaving out undefined ones', () => {
    expect(
      encodeParams({ symbol: 'btcusdt', limit: undefined, price: '0.1', email: 'a+b@x.io' }),
    ).toBe('symbol=btcusdt&price=0.1&email=a%2Bb%40x.io');
  });
});

describe('signerFor', () => {
  it('gives the same signatures as sign()', () => {
    const message =
      'symbol=ltcbtc&side=buy&type=limit&quantity=1&price=0.1&recvWindow=5000&timestamp=1499827319559';
    expect(signerFor(SECRET)(message)).toBe(sign(SECRET, message));
  });
});
