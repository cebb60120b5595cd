// Where OpenCode keeps sessions: the SQLite database (OpenCode ≥ 1.2) and
// the JSON storage tree of earlier versions, both under its data directory
// `$XDG_DATA_HOME/opencode` (default ~/.local/share/opencode), and the
// command that resumes a session.
import * as os from "node:os";
import * as path from "node:path";
import type { Environment } from "@txcript/core";
import { opencodeDataDir } from "./opencode-store-root.js";

export { opencodeDatabasePath, opencodeDataDir } from "./opencode-store-root.js";

/**
 * Where txcript stages export files for `opencode import`: the user's own
 * cache, `$XDG_CACHE_HOME/txcript/opencode-import` (default `~/.cache`), so
 * another user of a shared machine can neither read nor replace them (the
 * directory is created 0700).
 */
export function opencodeStagingDir(env: Environment = process.env): string {
  const cache =
    env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)
      ? env.XDG_CACHE_HOME
      : path.join(env.HOME || os.homedir(), ".cache");
  return path.join(cache, "txcript", "opencode-import");
}

/** The pre-1.2 JSON storage tree (`session/<project>/<ses>.json`, `message/<ses>/`, `part/<msg>/`). */
export function opencodeStorageDir(env: Environment = process.env): string {
  return path.join(opencodeDataDir(env), "storage");
}

/**
 * The argv that opens a session in OpenCode's TUI, run in the session's
 * directory. `--session=<id>` keeps the id a value even when it begins with `-`.
 */
export function opencodeResumeCommand(id: string, bin = "opencode"): string[] {
  return [bin, `--session=${id}`];
}
