// A package registry that answers every request with one status, as a registry that lost a package (404), refuses a
// token (401) or fails (503) does. Usage: node registry-stub.mjs <status> <port>
import http from 'node:http';

const [status, port] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  const code = Number(status);
  const headers = { 'content-type': 'application/json' };
  if (code === 401) headers['www-authenticate'] = 'Basic realm="registry"';
  res.writeHead(code, headers);
  res.end(JSON.stringify({ error: http.STATUS_CODES[code] ?? 'error' }));
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
