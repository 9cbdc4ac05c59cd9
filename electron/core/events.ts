/**
 * How the main process tells the renderer that something happened: one typed event at a time,
 * named by the bridge contract. The app owns the listeners; every other part only emits.
 */
import type { EventName, EventPayloads } from '../../shared/contract';

export type Emit = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;
