// Where pi keeps sessions and how it names them: the agent directory
// (PI_CODING_AGENT_DIR, else ~/.pi/agent), the per-cwd directory under
// sessions/ (or PI_CODING_AGENT_SESSION_DIR, one flat directory), the file
// name, the session id a foreign id maps to, and the resume command. Pure
// functions; no file system access.
import * as os from "node:os";
import * as path from "node:path";
import { uuidV5 } from "@txcript/core";

/** Namespace of every UUID and entry id this package derives (v5), fixed forever. */
export const piNamespace = "0b6f3a52-4c1e-5d8a-9f27-6e4d1c3b2a19";

/** Ids txcript keeps as pi session ids: a file-name-safe word pi's --session never takes for a path. */
const safeId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The pi session id for a session id of any harness: kept when safe, else the UUID v5 of `session:<id>`. */
export function piSessionId(foreignId: string): string {
  return safeId.test(foreignId) ? foreignId : uuidV5(`session:${foreignId}`, piNamespace);
}

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

/** pi's directory name for a cwd: the leading separator dropped, `/`, `\` and `:` as `-`, inside `--…--`. */
export function mungePiCwd(cwd: string): string {
  return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** pi's file name: the header timestamp with `:` and `.` as `-`, `_`, the session id, `.jsonl`. */
export function piSessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/**
 * How to continue a session in pi: run `argv` in the session's cwd (pi finds it
 * by id there first). pi's parser takes the argument after `--session` as its
 * value whatever it begins with (it has no `--session=` form).
 */
export function piResumeCommand(sessionId: string): readonly string[] {
  return ["pi", "--session", sessionId];
}
