/**
 * Before any worker starts: the app the journeys run is built and current. This is the run's only
 * build: the apps start with --no-build (support/child.ts), so none builds under another.
 */
import { ensureRendererBuilt } from './stack';

export default function globalSetup(): void {
  ensureRendererBuilt();
}
