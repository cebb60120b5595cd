// `txcript search <words…> [--json]` without the registry: when the index
// exists, is of this version, and every store it knows has a snapshot of the
// same root (the same test refresh.ts makes: each store's saved snapshot,
// compared with the disk), the query runs here, and prints what the command
// prints (search-output.ts). With nothing changed, before any codec or schema
// is loaded; with stores changed, after a refresh that loads only those
// stores' harnesses (@txcript/harnesses/lazy) and takes the comparisons just
// made for the others (search-refresh.ts reports it as the command does).
// Anything else (another option, a store added or moved, no index yet, any
// error) answers undefined and the bin runs the full command, which refreshes.
import type { AnyHarness, Store } from "@txcript/core";
import { loadStoreHarness } from "@txcript/harnesses/lazy";
import { type StoreRoot, storeRoots } from "@txcript/harnesses/roots";
import {
  defaultIndexFile,
  type IndexSource,
  type RefreshStats,
  type SearchHit,
  SearchIndex,
} from "@txcript/search";
import type { Io } from "./io.js";
import { type FastArguments, fastSearchArguments } from "./search-keeper-address.js";
import { printHits } from "./search-output.js";
import { harnessSource, refreshShown, reportFailures } from "./search-refresh.js";

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
  let index: SearchIndex | undefined;
  try {
    index = SearchIndex.openExisting(file);
  } catch {
    return undefined;
  }
  if (index === undefined) return undefined;
  try {
    return await answerFromIndex(io, index, storeRoots(io.env), wanted);
  } finally {
    index.close();
  }
}

/**
 * Answer a search from an open index when every store it knows is where the environment puts
 * it: the exit code, or undefined for the full path (which says what went wrong, or rebuilds).
 * Stores in `vouched` are taken as unchanged without a stat (the search keeper watches them);
 * `trusted`: every store is, and the index is as this process last compared it, so the
 * comparison is not made at all.
 */
export async function answerFromIndex(
  io: Io,
  index: SearchIndex,
  roots: readonly StoreRoot[],
  wanted: FastArguments,
  vouched?: ReadonlySet<string>,
  trusted = false,
): Promise<number | undefined> {
  let hits: SearchHit[];
  let refreshed: RefreshStats | undefined;
  try {
    const changed = trusted ? [] : index.changedSince(roots, vouched);
    if (changed === undefined) return undefined;
    if (changed.length > 0) {
      refreshed = await refreshChanged(io, index, roots, changed, wanted.json);
      if (refreshed === undefined) return undefined;
    }
    hits = index.search(wanted.query, { limit: 20 });
  } catch {
    return undefined;
  }
  try {
    if (refreshed !== undefined) await reportFailures(io, refreshed, wanted.json);
    await printHits(io, wanted.query, hits, wanted.json);
  } catch (error) {
    // The reader went away (`txcript search … | head`), as main treats it.
    if ((error as NodeJS.ErrnoException | undefined)?.code !== "EPIPE") throw error;
  }
  return 0;
}

/**
 * Refresh after `changed` stores changed, loading only their harnesses: every other store is
 * given by its root alone, and the refresh takes the comparison changedSince just made of it
 * (nothing changed). Should it need more of one of those (the comparison is no longer recalled:
 * another process saved a snapshot meanwhile, or it took over 2 s), that store refuses, and
 * undefined sends the command to the full path, whose refresh reads again what this one could
 * not (a session it failed on is marked changed in the snapshot saved).
 */
async function refreshChanged(
  io: Io,
  index: SearchIndex,
  roots: readonly StoreRoot[],
  changed: readonly string[],
  quiet: boolean,
): Promise<RefreshStats | undefined> {
  const loaded = new Map<string, AnyHarness>();
  for (const id of changed) {
    const harness = await loadStoreHarness(id);
    if (harness?.store === undefined) return undefined;
    loaded.set(id, harness);
  }
  let refused = false;
  const sources = roots.map(({ harness, root, paths }): IndexSource => {
    const definition = loaded.get(harness);
    if (definition?.store !== undefined)
      return harnessSource(definition, definition.store(io.env) as Store<unknown>, io.env);
    return unloadedSource(harness, root, paths, () => {
      refused = true;
    });
  });
  const stats = await refreshShown(io, index, sources, quiet);
  return refused ? undefined : stats;
}

/** A store whose harness is not loaded: its root, and a refusal for anything else. */
function unloadedSource(
  harness: string,
  root: string,
  paths: readonly string[] | undefined,
  refused: () => void,
): IndexSource {
  const refuse = (): never => {
    refused();
    throw new Error(`the ${harness} harness is not loaded`);
  };
  const store: Store<unknown> = {
    harness,
    root,
    ...(paths === undefined ? {} : { sessionPaths: paths }),
    discover: refuse,
    load: async () => refuse(),
    save: async () => refuse(),
    delete: async () => refuse(),
  };
  return { harness, store, read: refuse, loadFile: async () => refuse() };
}
