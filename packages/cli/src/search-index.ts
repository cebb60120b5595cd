// The CLI's search index: @txcript/search over every store of the registry,
// at $XDG_CACHE_HOME/txcript/search.sqlite, refreshed before each use, with a
// progress line on a terminal while sessions are (re)indexed.
import { defaultIndexFile, type IndexSource, SearchIndex } from "@txcript/search";
import { stores } from "./harnesses.js";
import { type Io, write } from "./io.js";

export function indexSources(io: Io): IndexSource[] {
  return stores(io.env).map(({ harness, store }) => ({
    harness: harness.id,
    store,
    read: (native) => harness.codec.toCommon(native, harness.readOptions?.({}) ?? {}),
    parse: (text, file) => harness.codec.parse(text, { file }),
  }));
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
  const tty = io.stderr.isTTY === true && !options.quiet;
  let drawn = false;
  const stats = await index.refresh(indexSources(io), (progress) => {
    if (!tty || progress.total < 20) return;
    io.stderr.write(`\r\u001b[Kindexing ${progress.done}/${progress.total} sessions…`);
    drawn = true;
  });
  if (drawn) io.stderr.write("\r\u001b[K");
  if (stats.failed.length > 0 && !options.quiet) {
    const first = stats.failed[0];
    await write(
      io.stderr,
      `txcript: could not index ${stats.failed.length} session${stats.failed.length === 1 ? "" : "s"} (${first?.path}: ${first?.reason})\n`,
    );
  }
  return index;
}
