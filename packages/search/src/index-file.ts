// Where the search index lives, in a module of its own (node:path only): the
// CLI's search keeper client (packages/cli/src/search-keeper-address.ts) names
// its socket after it without loading the index's module.
import * as path from "node:path";

/** Where the index lives: $XDG_CACHE_HOME/txcript/search.sqlite (default ~/.cache). */
export function defaultIndexFile(environment: Record<string, string | undefined>): string {
  const cache =
    environment.XDG_CACHE_HOME && path.isAbsolute(environment.XDG_CACHE_HOME)
      ? environment.XDG_CACHE_HOME
      : path.join(environment.HOME ?? "/", ".cache");
  return path.join(cache, "txcript", "search.sqlite");
}
