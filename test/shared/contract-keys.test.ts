/**
 * The contract (names, results; no zod) and the schemas (zod, main process only) must name exactly
 * the same methods. shared/contract.ts proves it at compile time with WithKeysOf; this file shows
 * that the same check fails to compile on a schema too many or a method too few (each
 * @ts-expect-error below is itself an error if the line after it compiles), and that the input
 * types the renderer uses are the ones the schemas derive.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  methodNames,
  type MethodInput,
  type MethodName,
  type MethodParsedInput,
  type SchemasMatchContract,
  type WithKeysOf,
} from '../../shared/contract';
import { methodSchemas, type MethodSchemas } from '../../shared/contract-schemas';

type Contract = Record<MethodName, unknown>;

// The tree's own check, restated: it compiles.
type TreeCheck = WithKeysOf<Contract, MethodSchemas>;

// A schema the contract does not name.
type WithExtraSchema = MethodSchemas & { 'orders.amend': z.ZodObject };
// @ts-expect-error 'orders.amend' is not a method of the contract
type ExtraSchemaFails = WithKeysOf<Contract, WithExtraSchema>;

// A method of the contract without a schema.
type WithoutPlaceSchema = Omit<MethodSchemas, 'orders.place'>;
// @ts-expect-error 'orders.place' has no schema
type MissingSchemaFails = WithKeysOf<Contract, WithoutPlaceSchema>;

// A method added to the contract but not to the schemas.
type LargerContract = Contract & Record<'orders.amend', unknown>;
// @ts-expect-error the schemas lack 'orders.amend'
type LargerContractFails = WithKeysOf<LargerContract, MethodSchemas>;

describe('the contract and its schemas', () => {
  it('name the same methods, at compile time and at run time', () => {
    expectTypeOf<SchemasMatchContract>().toEqualTypeOf<MethodSchemas>();
    expectTypeOf<TreeCheck>().toEqualTypeOf<MethodSchemas>();
    expectTypeOf<keyof MethodSchemas>().toEqualTypeOf<MethodName>();
    // The failing instantiations still resolve to B: only the compiler objects to them.
    expectTypeOf<ExtraSchemaFails>().toEqualTypeOf<WithExtraSchema>();
    expectTypeOf<MissingSchemaFails>().toEqualTypeOf<WithoutPlaceSchema>();
    expectTypeOf<LargerContractFails>().toEqualTypeOf<MethodSchemas>();
    expect(Object.keys(methodSchemas).sort()).toEqual([...methodNames].sort());
  });

  it('derive the input types from the schemas', () => {
    expectTypeOf<MethodInput<'orders.cancel'>>().toEqualTypeOf<{
      symbol: string;
      orderId: number;
      account?: string | undefined;
    }>();
    expectTypeOf<MethodInput<'orders.place'>>().toEqualTypeOf<
      z.input<MethodSchemas['orders.place']>
    >();
    // Defaults may be left out by the caller and are always there for the handler.
    expectTypeOf<MethodInput<'market.klines'>['limit']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<MethodParsedInput<'market.klines'>['limit']>().toEqualTypeOf<number>();
    expect(methodSchemas['market.klines'].parse({ symbol: 'btcusdt', interval: '1h' })).toEqual({
      symbol: 'btcusdt',
      interval: '1h',
      limit: 200,
    });
  });
});
