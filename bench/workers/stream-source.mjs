// Child process: writes `bytes` of stream-json lines to stdout, cycling
// through one generated capture, honouring back-pressure, so the reader on
// the other end of the pipe sees a long live stream that exists nowhere whole.
import { readFileSync } from "node:fs";

const [file, total] = [process.argv[2], Number(process.argv[3])];
const lines = readFileSync(file, "utf8")
  .split("\n")
  .filter((line) => line !== "");
// Batches of about 1 MB: one write per batch keeps the source faster than the reader.
const batches = [];
let batch = [];
let size = 0;
for (const line of lines) {
  batch.push(line);
  size += line.length + 1;
  if (size >= 1 << 20) {
    batches.push(Buffer.from(`${batch.join("\n")}\n`));
    batch = [];
    size = 0;
  }
}
if (batch.length > 0) batches.push(Buffer.from(`${batch.join("\n")}\n`));
let written = 0;
let index = 0;
process.stdout.on("error", () => process.exit(0));
while (written < total) {
  const chunk = batches[index++ % batches.length];
  written += chunk.length;
  if (!process.stdout.write(chunk))
    await new Promise((resolve) => process.stdout.once("drain", resolve));
}
process.stdout.end();
