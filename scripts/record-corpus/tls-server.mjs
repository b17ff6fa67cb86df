// An HTTPS server whose certificate no client trusts, as a TLS-inspecting proxy presents it: `chain` sends a leaf and
// its self-signed root (SELF_SIGNED_CERT_IN_CHAIN), `leaf` sends the leaf alone (unable to get local issuer certificate).
// Usage: node tls-server.mjs <chain|leaf> <port> <dir with ca.pem, leaf.pem, leaf.key>
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';

const [mode, port, dir] = process.argv.slice(2);
const leaf = fs.readFileSync(path.join(dir, 'leaf.pem'), 'utf8');
const ca = fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8');
const server = https.createServer({ key: fs.readFileSync(path.join(dir, 'leaf.key')), cert: mode === 'chain' ? leaf + ca : leaf }, (req, res) => {
  res.writeHead(404, { 'content-type': 'text/plain' });
  res.end('not here\n');
});
server.listen(Number(port), '127.0.0.1', () => process.stdout.write(`listening ${port}\n`));
