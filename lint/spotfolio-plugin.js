/**
 * The project's own lint rules, an ESLint-style plugin that oxlint loads (oxlint.config.js,
 * jsPlugins). test/lint/rules.test.ts shows what they catch.
 */

/**
 * Time goes through the injected Clock (electron/core/clock.ts): a raw timer cannot be driven by a
 * test's manual clock, so whatever waits on one makes its tests sleep. Flags the global timer
 * functions (called, passed or read off globalThis) and the node:timers modules.
 */
const TIMER_NAMES = new Set(['setTimeout', 'setInterval', 'clearTimeout', 'clearInterval']);
const TIMER_MODULES = /^(node:)?timers(\/promises)?$/;
const clockOnlyTimers = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      timer:
        '{{name}} runs on the wall clock: use the injected Clock and its toolbox (electron/core/clock.ts).',
    },
  },
  create(context) {
    const report = (node, name) => context.report({ node, messageId: 'timer', data: { name } });
    return {
      ImportDeclaration(node) {
        if (TIMER_MODULES.test(node.source.value)) report(node, `'${node.source.value}'`);
      },
      MemberExpression(node) {
        const { object, property } = node;
        if (
          object.type === 'Identifier' &&
          ['globalThis', 'global', 'window'].includes(object.name) &&
          !node.computed &&
          TIMER_NAMES.has(property.name)
        ) {
          report(node, `${object.name}.${property.name}`);
        }
      },
      'Program:exit'(program) {
        const globalScope = context.sourceCode.getScope(program);
        for (const name of TIMER_NAMES) {
          const references = [
            ...(globalScope.set.get(name)?.references ?? []),
            ...globalScope.through.filter((ref) => ref.identifier.name === name),
          ];
          for (const ref of references) report(ref.identifier, name);
        }
      },
    };
  },
};

/**
 * The ledger's amounts are the project's one Decimal (shared/exact-decimal.ts): no second amount
 * type of scaled integers beside it. Flags a bigint literal, BigInt (called or read) and the bigint
 * type; oxlint.config.js applies it to electron/ledger/.
 */
const decimalAmounts = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      bigint:
        'Ledger amounts are Decimal (shared/exact-decimal.ts), not scaled bigints ({{what}}).',
    },
  },
  create(context) {
    const report = (node, what) => context.report({ node, messageId: 'bigint', data: { what } });
    return {
      Literal(node) {
        if (typeof node.bigint === 'string') report(node, 'a bigint literal');
      },
      Identifier(node) {
        if (node.name === 'BigInt') report(node, 'BigInt');
      },
      TSBigIntKeyword(node) {
        report(node, 'the bigint type');
      },
    };
  },
};

export default {
  meta: { name: 'spotfolio' },
  rules: { 'clock-only-timers': clockOnlyTimers, 'decimal-amounts': decimalAmounts },
};
