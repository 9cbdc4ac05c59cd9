/**
 * Before any worker starts: the app the journeys run is built and current, so the workers' app
 * starts (scripts/start.mjs checks the build each time) never build, and never two at once.
 */
import { ensureRendererBuilt } from './stack';

export default function globalSetup(): void {
  ensureRendererBuilt();
}
