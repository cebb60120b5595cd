// Where GitHub Copilot CLI keeps its sessions, from the environment alone: the store's
// default root (COPILOT_HOME) and where under it sessions lie. It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** `$COPILOT_HOME` when set, else `<home>/.copilot`. */
export function defaultCopilotRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.COPILOT_HOME;
  if (configured !== undefined && configured !== "") return configured;
  return path.join(env.HOME || env.USERPROFILE || os.homedir(), ".copilot");
}

/** Where under the root the store reads sessions (Store.sessionPaths). */
export const copilotSessionPaths = ["session-state/*", "session-state/*/events.jsonl"] as const;

/** The Copilot CLI store's location: its home, and the paths under it that hold sessions. */
export function copilotCliStoreLocation(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  paths: string[];
} {
  return { root: path.resolve(defaultCopilotRoot(env)), paths: [...copilotSessionPaths] };
}
