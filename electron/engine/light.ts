// The front door's light half: what the CLI's light paths (`ratchet --help`, `ratchet list`) take from the engine without
// loading it (no agents, sandbox or git behind these: the list reads the store alone). index.ts hands the same names on,
// so every host still finds the whole engine at index.ts.
export { RatchetError, isBadInput } from './errors';
export { defaultHome } from './home';
export { listStoredRuns } from './lifecycle/run-list';
