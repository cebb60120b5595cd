// Where Qwen Code keeps its sessions, from the environment alone: the store's
// default root (its runtime directory) and where under it sessions lie. It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

function expandTilde(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return path.join(home, value.slice(2));
  return path.resolve(value);
}

/** Qwen Code's runtime directory: `$QWEN_RUNTIME_DIR`, else `$QWEN_HOME`, else `~/.qwen`. */
export function defaultQwenRoot(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  for (const name of ["QWEN_RUNTIME_DIR", "QWEN_HOME"]) {
    const value = env[name];
    if (value !== undefined && value !== "") return expandTilde(value, home);
  }
  return path.join(home, ".qwen");
}

/** Where under the runtime directory the store reads sessions (Store.sessionPaths). */
export const qwenSessionPaths = ["projects/*/chats/*"] as const;

/** The Qwen Code store's location: its runtime directory, and the paths under it that hold sessions. */
export function qwenCodeStoreLocation(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  paths: string[];
} {
  return { root: path.resolve(defaultQwenRoot(env)), paths: [...qwenSessionPaths] };
}
