import { uuidV5 } from "@txcript/core";

export { piAgentDir, piSessionsRoot } from "./pi-store-root.js";

/** Namespace of every UUID and entry id this package derives (v5), fixed forever. */
export const piNamespace = "0b6f3a52-4c1e-5d8a-9f27-6e4d1c3b2a19";

/** Ids txcript keeps as pi session ids: a file-name-safe word pi's --session never takes for a path. */
const safeId = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** The pi session id for a session id of any harness: kept when safe, else the UUID v5 of `session:<id>`. */
export function piSessionId(foreignId: string): string {
  return safeId.test(foreignId) ? foreignId : uuidV5(`session:${foreignId}`, piNamespace);
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
