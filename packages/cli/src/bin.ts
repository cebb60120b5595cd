#!/usr/bin/env node
// The `txcript` executable. `--version` is answered here, before the
// command modules (zod schemas, codecs) are loaded, so it starts as fast as
// node itself; everything else loads the dispatcher as a separate chunk.
declare const TXCRIPT_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${TXCRIPT_VERSION}\n`);
} else {
  // A closed pipe surfaces through the pending write; keep it from crashing here.
  process.stdout.on("error", () => undefined);
  const [{ main }, { processIo }] = await Promise.all([import("./main.js"), import("./io.js")]);
  process.exitCode = await main(args, processIo(), TXCRIPT_VERSION);
}
