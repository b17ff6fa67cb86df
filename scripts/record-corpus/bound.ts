// Cuts a recorded output through the project's own bounding (the gate's head + tail), as a very long gate log would be.
// Usage: tsx scripts/record-corpus/bound.ts <file> <headBytes> <tailBytes>   (rewrites the file in place)
import fs from 'node:fs';
import { BoundedOutput } from '../../electron/engine/gates/bounded-output';

const [file, head, tail] = process.argv.slice(2);
const out = new BoundedOutput(Number(head), Number(tail));
out.push(fs.readFileSync(file!));
fs.writeFileSync(file!, out.toString());
