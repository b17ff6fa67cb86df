// Dev entry: installs the fake bridge as window.ratchet (?bridge=browser leaves out pathForFile, as a plain browser would), then starts the app.
import { flushSync } from 'react-dom';
import { createFakeBridge } from './fake-bridge';
import { seedHistory, simulateLiveRun } from './seed-history';
import { RUN_IDS } from './fixtures-runs';

const params = new URLSearchParams(location.search);
const fake = createFakeBridge({
  latencyMs: Number(params.get('latency') ?? 120),
  ...(params.get('bridge') === 'browser' ? {} : { pathForFile: (f: File) => `/home/dev/code/${f.name}` }),
});
seedHistory(fake);
if (params.get('live') !== '0') simulateLiveRun(fake, RUN_IDS.running);
window.ratchet = fake.bridge;
// For bench/live-transcript.bench.ts: push engine events and let React render them synchronously, to time one event.
(window as unknown as { __ratchetDev: unknown }).__ratchetDev = { fake, flushSync };

await import('../src/main');
