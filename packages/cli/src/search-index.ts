// The CLI's search index: @txcript/search over every store of the registry,
// at $XDG_CACHE_HOME/txcript/search.sqlite, refreshed before each use, with a
// progress line on a terminal while sessions are (re)indexed (search-refresh.ts).
import { defaultIndexFile, type IndexSource, SearchIndex } from "@txcript/search";
import { stores } from "./harnesses.js";
import { type Io, write } from "./io.js";
import { harnessSource, refreshShown, reportFailures } from "./search-refresh.js";

export function indexSources(io: Io): IndexSource[] {
  return stores(io.env).map(({ harness, store }) => harnessSource(harness, store, io.env));
}

export async function openFreshIndex(
  io: Io,
  options: { reindex?: boolean; quiet?: boolean } = {},
): Promise<SearchIndex> {
  const file = io.env.TXCRIPT_SEARCH_INDEX ?? defaultIndexFile(io.env);
  if (options.reindex) await SearchIndex.remove(file);
  const { index, rebuilt } = await SearchIndex.open(file);
  if (rebuilt !== undefined && !options.quiet)
    await write(io.stderr, `txcript: rebuilding the search index (${rebuilt})\n`);
  const quiet = options.quiet === true;
  await reportFailures(io, await refreshShown(io, index, indexSources(io), quiet), quiet);
  return index;
}
