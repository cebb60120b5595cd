// Where OpenCode keeps its sessions, from the environment alone: its data
// directory and database file, the store's default root. It imports
// node:os and node:path only, so @txcript/harnesses/roots (the CLI's search
// fast path) reads every store's location through this subpath
// (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

type Environment = Record<string, string | undefined>;

/** OpenCode's data directory. */
export function opencodeDataDir(env: Environment = process.env): string {
  const base = env.XDG_DATA_HOME || path.join(env.HOME || os.homedir(), ".local", "share");
  return path.join(base, "opencode");
}

/** Release channels that share the plain `opencode.db`; others get `opencode-<channel>.db`. */
const sharedChannels = new Set(["latest", "beta", "prod"]);

/**
 * The database file OpenCode uses: `OPENCODE_DB` (absolute, or relative to
 * the data directory) when set, else `opencode.db` (or `opencode-<channel>.db`
 * for other release channels). Undefined for `OPENCODE_DB=:memory:`.
 */
export function opencodeDatabasePath(
  env: Environment = process.env,
  channel = "latest",
): string | undefined {
  const override = env.OPENCODE_DB;
  if (override === ":memory:") return undefined;
  if (override)
    return path.isAbsolute(override) ? override : path.join(opencodeDataDir(env), override);
  const name = sharedChannels.has(channel) ? "opencode.db" : `opencode-${channel}.db`;
  return path.join(opencodeDataDir(env), name);
}

/** The OpenCode store's root: its database file (`opencode.db` in the data directory under `OPENCODE_DB=:memory:`, which keeps none). */
export function opencodeDefaultRoot(env: Environment = process.env): string {
  return opencodeDatabasePath(env) ?? path.join(opencodeDataDir(env), "opencode.db");
}

/** The OpenCode store's location: its database file. */
export function opencodeStoreLocation(env: Environment = process.env): { root: string } {
  return { root: opencodeDefaultRoot(env) };
}
