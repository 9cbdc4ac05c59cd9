/**
 * trade-reader.ts run from its TypeScript, where the app itself runs from it (tests, benches,
 * `tsx electron/serve/cli.ts`): a worker thread does not inherit its parent's module hooks, so
 * tsx's loader is registered for this thread before the reader is imported. A built app starts
 * the reader's own bundle instead (trade-reader.cjs beside the app's).
 */
import { tsImport } from 'tsx/esm/api';

await tsImport('./trade-reader.ts', import.meta.url);
