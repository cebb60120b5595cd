// `txcript search <words…> [--json]` without the registry: when the index
// exists, is of this version, and no store changed since it was refreshed
// (the same test refresh.ts makes: each store's saved snapshot, compared
// with the disk), the query runs here, before any codec or schema is
// loaded, and prints what the command prints (search-output.ts). Anything
// else (another option, a store changed or added, no index yet, any error)
// answers undefined and the bin runs the full command, which refreshes.
import { storeRoots } from "@txcript/harnesses/roots";
import { defaultIndexFile, type SearchHit, SearchIndex } from "@txcript/search";
import type { Io } from "./io.js";
import { printHits } from "./search-output.js";

/** The query and --json of arguments the fast path takes (after `search`); undefined for any other. */
export function fastSearchArguments(
  args: readonly string[],
): { query: string; json: boolean } | undefined {
  const words: string[] = [];
  let json = false;
  for (const arg of args) {
    if (arg === "--json" && !json) json = true;
    else if (arg === "" || arg.startsWith("-")) return undefined;
    else words.push(arg);
  }
  return words.length === 0 ? undefined : { query: words.join(" "), json };
}

/**
 * Run `search` when nothing changed: the exit code, or undefined for the full
 * path. TXCRIPT_SEARCH_FAST=0 skips it; =only (for tests) exits 125 where it
 * would fall back, so a test can tell which path answered.
 */
export async function fastSearch(args: readonly string[], io: Io): Promise<number | undefined> {
  const mode = io.env.TXCRIPT_SEARCH_FAST;
  if (mode === "0") return undefined;
  const answer = await fastAnswer(args, io);
  return answer === undefined && mode === "only" ? 125 : answer;
}

async function fastAnswer(args: readonly string[], io: Io): Promise<number | undefined> {
  const wanted = fastSearchArguments(args);
  if (wanted === undefined) return undefined;
  const file = io.env.TXCRIPT_SEARCH_INDEX ?? defaultIndexFile(io.env);
  let hits: SearchHit[];
  try {
    const index = SearchIndex.openExisting(file);
    if (index === undefined) return undefined;
    try {
      if (!index.unchangedSince(storeRoots(io.env))) return undefined;
      hits = index.search(wanted.query, { limit: 20 });
    } finally {
      index.close();
    }
  } catch {
    // The full path says what went wrong (or rebuilds).
    return undefined;
  }
  try {
    await printHits(io, wanted.query, hits, wanted.json);
  } catch (error) {
    // The reader went away (`txcript search … | head`), as main treats it.
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "EPIPE") throw error;
  }
  return 0;
}
