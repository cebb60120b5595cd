#!/usr/bin/env node
// The `txcript` executable. `--version` is answered here, before the
// command modules (zod schemas, codecs) are loaded, so it starts as fast as
// node itself; `search` with nothing changed runs from a small chunk of its
// own (search-fast.ts); everything else loads the dispatcher as a separate chunk.
declare const TXCRIPT_VERSION: string;

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${TXCRIPT_VERSION}\n`);
} else {
  // A closed pipe surfaces through the pending write; keep it from crashing here.
  process.stdout.on("error", () => undefined);
  // `search` with nothing changed is answered without the registry (search-fast.ts).
  const fast =
    args[0] === "search"
      ? await Promise.all([import("./search-fast.js"), import("./io.js")]).then(
          ([{ fastSearch }, { processIo }]) => fastSearch(args.slice(1), processIo()),
        )
      : undefined;
  if (fast !== undefined) process.exitCode = fast;
  else {
    const [{ main }, { processIo }] = await Promise.all([import("./main.js"), import("./io.js")]);
    process.exitCode = await main(args, processIo(), TXCRIPT_VERSION);
  }
}
