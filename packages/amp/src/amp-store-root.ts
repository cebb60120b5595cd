// Where Amp keeps its sessions, from the environment alone: the store's
// default root. It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

/**
 * `AMP_THREADS_DIR`, else `$XDG_DATA_HOME/amp/threads` (an absolute
 * XDG_DATA_HOME, not on Windows), else `~/.local/share/amp/threads`.
 */
export function ampThreadsDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string {
  const explicit = nonEmpty(env.AMP_THREADS_DIR);
  if (explicit !== undefined) return path.resolve(explicit);
  const xdg = nonEmpty(env.XDG_DATA_HOME);
  if (platform !== "win32" && xdg !== undefined && path.isAbsolute(xdg))
    return path.join(xdg, "amp", "threads");
  const home =
    nonEmpty(platform === "win32" ? (env.USERPROFILE ?? env.HOME) : env.HOME) ?? os.homedir();
  return path.join(home, ".local", "share", "amp", "threads");
}

/** The Amp store's location: its root (every file under it may be a thread). */
export function ampStoreLocation(env: NodeJS.ProcessEnv = process.env): { root: string } {
  return { root: path.resolve(ampThreadsDir(env)) };
}
