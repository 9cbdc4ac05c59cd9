/**
 * checkpoint-thread.ts run from its TypeScript, where the app itself runs from it (tests, benches,
 * `tsx electron/serve/cli.ts`): a worker thread does not inherit its parent's module hooks, so
 * tsx's loader is registered for this thread before the thread's body is imported. A built app
 * starts the body's own bundle instead (checkpoint-thread.cjs beside the app's).
 */
import { tsImport } from 'tsx/esm/api';

await tsImport('./checkpoint-thread.ts', import.meta.url);
