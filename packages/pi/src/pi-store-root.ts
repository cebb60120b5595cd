// Where pi keeps its sessions, from the environment alone: the store's
// default root (its sessions directory). It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** The agent directory: `$PI_CODING_AGENT_DIR` (a leading ~ expanded), else `~/.pi/agent`. */
export function piAgentDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  const configured = env.PI_CODING_AGENT_DIR;
  if (configured !== undefined && configured !== "") return expandTilde(configured, home);
  return path.join(home, ".pi", "agent");
}

function expandTilde(value: string, home: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return path.join(home, value.slice(2));
  return value;
}

/**
 * Where sessions live: `{ root, flat }`. With PI_CODING_AGENT_SESSION_DIR pi
 * keeps every session directly in that directory (flat); otherwise in
 * `<agent dir>/sessions/--<munged cwd>--/`.
 */
export function piSessionsRoot(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  flat: boolean;
} {
  const home = env.HOME || env.USERPROFILE || os.homedir();
  const sessionDir = env.PI_CODING_AGENT_SESSION_DIR;
  if (sessionDir !== undefined && sessionDir !== "")
    return { root: expandTilde(sessionDir, home), flat: true };
  return { root: path.join(piAgentDir(env), "sessions"), flat: false };
}

/** The pi store's location: its sessions directory. */
export function piStoreLocation(env: NodeJS.ProcessEnv = process.env): { root: string } {
  return { root: path.resolve(piSessionsRoot(env).root) };
}
