#!/usr/bin/env node
// The `txcript` executable. `--version` is answered here, before the
// command modules (zod schemas, codecs) are loaded, so it starts as fast as
// node itself; `search` with nothing changed runs from a small chunk of its
// own (search-fast.ts), or by the search keeper when one runs (search-client.ts);
// everything else loads the dispatcher as a separate chunk.
declare const TXCRIPT_VERSION: string;

/**
 * Node 22.1 and later keep the compiled code of the modules loaded after
 * this call in a cache on disk (os.tmpdir()/node-compile-cache, or
 * NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE turns it off), so later
 * runs skip compiling the chunks a command loads. Node 20 has no such API
 * (nor process.getBuiltinModule, 22.3, through which it is reached: the
 * entry imports nothing statically, build.mjs). `--version` loads nothing
 * more, so it does not ask.
 */
function cacheCompiledCode(): void {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  try {
    (
      getBuiltin?.("node:module") as { enableCompileCache?: () => unknown } | undefined
    )?.enableCompileCache?.();
  } catch {
    // A cache that cannot be made (no writable temporary directory) costs nothing but the time.
  }
}

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === "--version" || args[0] === "-V")) {
  process.stdout.write(`${TXCRIPT_VERSION}\n`);
} else if (args[0] === "__search-keeper") {
  cacheCompiledCode();
  // The search keeper (search-keeper.ts), started in the background by a search.
  const { serveKeeper } = await import("./search-keeper.js");
  process.exit(await serveKeeper(process.env, TXCRIPT_VERSION));
} else {
  cacheCompiledCode();
  // `search` is answered by a running search keeper when one is asked for (search-client.ts;
  // off unless TXCRIPT_SEARCH_KEEPER=1, and only then is its socket code, node:net, loaded),
  // else with nothing changed without the registry (search-fast.ts).
  const search = args[0] === "search";
  const mode = search
    ? (await import("./search-keeper-address.js")).keeperMode(process.env)
    : "off";
  const client = mode === "off" ? undefined : await import("./search-client.js");
  // A closed pipe surfaces through the pending write; keep it from crashing here
  // (processIo does the same for the other paths, when stdout is first used).
  if (client !== undefined) process.stdout.on("error", () => undefined);
  let code =
    client === undefined
      ? undefined
      : await client.askKeeper(args.slice(1), process.env, TXCRIPT_VERSION, process);
  if (code === undefined && mode === "only") code = 125;
  if (code === undefined && search)
    code = await Promise.all([import("./search-fast.js"), import("./io.js")]).then(
      ([{ fastSearch }, { processIo }]) => fastSearch(args.slice(1), processIo()),
    );
  if (code === undefined) {
    const [{ main }, { processIo }] = await Promise.all([import("./main.js"), import("./io.js")]);
    code = await main(args, processIo(), TXCRIPT_VERSION);
  }
  process.exitCode = code;
  // A search the keeper did not answer starts one for the next (it exits when idle).
  if (client !== undefined && code !== 125)
    await client.startKeeper(args.slice(1), process.env, TXCRIPT_VERSION, process.argv[1]);
}
