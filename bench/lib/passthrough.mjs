// The baseline of the batch benches (tax take-home, energy bill): a process that reads NDJSON lines on
// stdin and writes each one back parsed and stringified, in blocks of 1,000 lines, honouring back-pressure.
// What a batch costs beyond this is its own work (validation, calculation, the envelope).
import { createInterface } from 'node:readline';

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
let buf = [];
for await (const line of rl) {
  if (!line) continue;
  buf.push(JSON.stringify(JSON.parse(line)));
  if (buf.length >= 1000) {
    if (!process.stdout.write(buf.join('\n') + '\n')) await new Promise((r) => process.stdout.once('drain', r));
    buf = [];
  }
}
if (buf.length) process.stdout.write(buf.join('\n') + '\n');
