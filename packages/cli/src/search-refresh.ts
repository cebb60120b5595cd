// The CLI's refresh of the search index, shared by the command (search-index.ts,
// every store of the registry) and the fast path after a store changed
// (search-fast.ts, only the changed stores' harnesses loaded): the source of
// a harness's store, and the progress line and failure note around a refresh.
// Imports no harness: the fast path must not load the registry.
import type { AnyHarness, Store } from "@txcript/core";
import type { IndexSource, RefreshStats, SearchIndex } from "@txcript/search";
import { type Io, write } from "./io.js";

/** How the index reads one harness's store. */
export function harnessSource(harness: AnyHarness, store: Store<unknown>): IndexSource {
  return {
    harness: harness.id,
    store,
    read: (native) => harness.codec.toCommon(native, harness.readOptions?.({}) ?? {}),
    parse: (text, file) => harness.codec.parse(text, { file }),
  };
}

/** Refresh, with a progress line on a terminal while sessions are (re)indexed. */
export async function refreshShown(
  io: Io,
  index: SearchIndex,
  sources: readonly IndexSource[],
  quiet: boolean,
): Promise<RefreshStats> {
  const tty = io.stderr.isTTY === true && !quiet;
  let drawn = false;
  const stats = await index.refresh(sources, (progress) => {
    if (!tty || progress.total < 20) return;
    io.stderr.write(`\r\u001b[Kindexing ${progress.done}/${progress.total} sessions…`);
    drawn = true;
  });
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
