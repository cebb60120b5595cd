// The CLI's refresh of the search index, shared by the command (search-index.ts,
// every store of the registry) and the fast path after a store changed
// (search-fast.ts, only the changed stores' harnesses loaded): the source of
// a harness's store, and the progress line and failure note around a refresh.
// Imports no harness: the fast path must not load the registry.
// Types only from @txcript/core: its index loads zod and every codec helper, which the fast
// path must not (so core's loadSessionFile / sessionReadsAlone are applied inline below).
import type { AnyHarness, Discovered, Environment, LineSource, Store } from "@txcript/core";
import type { IndexSource, RefreshStats, SearchIndex } from "@txcript/search";
import { type Io, write } from "./io.js";

/**
 * How the index reads one harness's store: each discovered session through the harness's own
 * load of the path discovery found (its side files with it), and line by line when the
 * harness says that file reads alone.
 */
export function harnessSource(
  harness: AnyHarness,
  store: Store<unknown>,
  environment: Environment,
): IndexSource {
  const load = harness.loadFile;
  return {
    harness: harness.id,
    store,
    read: (native) => harness.codec.toCommon(native, harness.readOptions?.({}) ?? {}),
    // Without a load of its own, the store's (Amp's refuses links and FIFOs).
    ...(load === undefined
      ? {}
      : {
          loadFile: (session: Discovered) =>
            load(session.path, { environment, discovered: session }),
        }),
    // As core's sessionReadsAlone: a harness with no load of its own reads its one file.
    readsAlone: async (session) =>
      harness.readsAlone !== undefined
        ? harness.readsAlone(session.path, { environment, discovered: session })
        : harness.loadFile === undefined
          ? {}
          : undefined,
    ...(harness.readStream === undefined
      ? {}
      : {
          readStream: (lines: LineSource, options: Record<string, unknown>) =>
            harness.readStream?.(lines, { ...harness.readOptions?.({}), ...options }) ?? [],
        }),
  };
}

/**
 * Refresh, with a progress line on a terminal while sessions are (re)indexed (and, while a long
 * one is read line by line, how far). A session file of TXCRIPT_STREAM_MIN_BYTES or more (64 MiB
 * by default) is read line by line where it can be; one past TXCRIPT_MAX_INPUT_BYTES that cannot
 * be is reported, not read.
 */
export async function refreshShown(
  io: Io,
  index: SearchIndex,
  sources: readonly IndexSource[],
  quiet: boolean,
): Promise<RefreshStats> {
  const tty = io.stderr.isTTY === true && !quiet;
  let drawn = false;
  // Loaded here, not with this module: the fast path imports it without refreshing.
  const { maxInputBytes, streamMinBytes } = await import("./limits.js");
  const options = { streamMinBytes: streamMinBytes(io.env), maxWholeBytes: maxInputBytes(io.env) };
  const stats = await index.refresh(
    sources,
    (progress) => {
      if (!tty) return;
      // A long session read line by line: how far, whatever the number of sessions.
      if (progress.size !== undefined) {
        const mb = (bytes: number) => Math.round(bytes / 2 ** 20);
        io.stderr.write(
          `\r\u001b[Kindexing ${progress.done}/${progress.total} sessions… reading a ${mb(progress.size)} MB session line by line (${mb(progress.read ?? 0)} MB)`,
        );
        drawn = true;
        return;
      }
      if (progress.total < 20) return;
      io.stderr.write(`\r\u001b[Kindexing ${progress.done}/${progress.total} sessions…`);
      drawn = true;
    },
    options,
  );
  if (drawn) io.stderr.write("\r\u001b[K");
  return stats;
}

/** The note on sessions that could not be indexed. */
export async function reportFailures(io: Io, stats: RefreshStats, quiet: boolean): Promise<void> {
  if (stats.failed.length === 0 || quiet) return;
  const first = stats.failed[0];
  await write(
    io.stderr,
    `txcript: could not index ${stats.failed.length} session${stats.failed.length === 1 ? "" : "s"} (${first?.path}: ${first?.reason})\n`,
  );
}
