// Where Kimi CLI keeps its sessions, from the environment alone: the store's
// default root (its share directory) and where under it sessions lie. It
// imports node:os and node:path only, so @txcript/harnesses/roots (the CLI's
// search fast path) reads every store's location through this subpath
// (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** Kimi CLI's share directory: `$KIMI_SHARE_DIR`, else `~/.kimi` (share.py get_share_dir). */
export function defaultKimiRoot(env: NodeJS.ProcessEnv = process.env): string {
  const share = env.KIMI_SHARE_DIR;
  if (share !== undefined && share !== "") return path.resolve(share);
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return path.join(home, ".kimi");
}

/** Where under the share directory the store reads (Store.sessionPaths): the sessions and the work-dir list. */
export const kimiSessionPaths = ["sessions/**", "kimi.json"] as const;

/** The Kimi CLI store's location: its share directory, and the paths under it that hold sessions. */
export function kimiCliStoreLocation(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  paths: string[];
} {
  return { root: path.resolve(defaultKimiRoot(env)), paths: [...kimiSessionPaths] };
}
