// Where Gemini CLI keeps its sessions, from the environment alone: the store's
// default root (its `.gemini` directory) and where under it sessions lie. It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** `$GEMINI_CLI_HOME/.gemini`, else `<home>/.gemini`. */
export function defaultGeminiRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.GEMINI_CLI_HOME;
  const home =
    configured !== undefined && configured !== ""
      ? configured
      : env.HOME || env.USERPROFILE || os.homedir();
  return path.join(home, ".gemini");
}

/** Where under `.gemini` the store reads sessions (Store.sessionPaths). */
export const geminiSessionPaths = [
  "projects.json",
  "tmp/*/.project_root",
  "tmp/*/chats/**",
] as const;

/** The Gemini CLI store's location: its `.gemini` directory, and the paths under it that hold sessions. */
export function geminiCliStoreLocation(env: NodeJS.ProcessEnv = process.env): {
  root: string;
  paths: string[];
} {
  return { root: path.resolve(defaultGeminiRoot(env)), paths: [...geminiSessionPaths] };
}
