// Where Codex keeps its sessions, from the environment alone: the store's
// default root (CODEX_HOME) and where under it sessions lie. It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** `$CODEX_HOME` when set, else `~/.codex`. */
export function defaultCodexHome(env: Record<string, string | undefined> = process.env): string {
  const configured = env.CODEX_HOME;
  if (configured !== undefined && configured !== "") return configured;
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return path.join(home, ".codex");
}

/** Where under CODEX_HOME the store reads sessions (Store.sessionPaths). */
export const codexSessionPaths = [
  "sessions/**",
  "archived_sessions/**",
  "session_index.jsonl",
] as const;

/** The Codex store's location: CODEX_HOME, and the paths under it that hold sessions. */
export function codexStoreLocation(env: Record<string, string | undefined> = process.env): {
  root: string;
  paths: string[];
} {
  return { root: path.resolve(defaultCodexHome(env)), paths: [...codexSessionPaths] };
}
