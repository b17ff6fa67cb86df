// The engine events' payload schemas come from the contract (shared/engine-events.ts); re-exported under the names the stores use.
export { eventPayloads as payloads, payloadOf, type EngineEventType as PayloadType, type Payload } from '../../../shared/engine-events';
