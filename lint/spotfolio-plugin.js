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

export default {
  meta: { name: 'spotfolio' },
  rules: { 'clock-only-timers': clockOnlyTimers },
};
