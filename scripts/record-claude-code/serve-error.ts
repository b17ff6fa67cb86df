// The scripted Anthropic server answering every request with one HTTP error (and retry-after: 7), for record.sh.
import { startScriptedServer } from '../../electron/scripted/server';

const status = Number(process.argv[2] ?? 429);
const message = status === 529 ? 'Overloaded' : 'Number of requests has exceeded your rate limit';
const server = await startScriptedServer({ script: { rules: [{ response: { error: { status, retryAfter: 7, message } } }] } });
process.stdout.write(`${server.url}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
