// Where Claude Code keeps its sessions, from the environment alone: the store's
// default root (its `projects` directory; every session file lies under it). It imports node:os and node:path only, so
// @txcript/harnesses/roots (the CLI's search fast path) reads every store's
// location through this subpath (`./store-root`) without loading a codec.
import * as os from "node:os";
import * as path from "node:path";

/** The `projects` directory: `$CLAUDE_CONFIG_DIR/projects` when set, else `~/.claude/projects`. */
export function defaultClaudeProjectsRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.CLAUDE_CONFIG_DIR;
  if (configured !== undefined && configured !== "") return path.join(configured, "projects");
  const home = env.HOME || env.USERPROFILE || os.homedir();
  return path.join(home, ".claude", "projects");
}

/** The Claude Code store's location: its `projects` directory. */
export function claudeCodeStoreLocation(env: NodeJS.ProcessEnv = process.env): { root: string } {
  return { root: path.resolve(defaultClaudeProjectsRoot(env)) };
}
