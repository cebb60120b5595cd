import { uuidV5 } from "@txcript/core";

export { defaultQwenRoot } from "./qwen-code-store-root.js";

/** Namespace of every UUID this package derives (v5), fixed forever. */
export const qwenCodeNamespace = "6d1f0c3a-2b7e-5a41-8c9d-3e5f7a1b2c4d";

/** Names of session files Qwen Code lists (sessionService.ts SESSION_FILE_PATTERN without `.jsonl`). */
export const qwenFileIdPattern = /^[0-9a-fA-F-]{32,36}$/;

/**
 * Ids `qwen --resume <id>` takes as a session id (anything else it looks up as
 * a title): an RFC 4122 UUID of version 1 to 5 (sessionId.ts
 * CALLER_SUPPLIED_SESSION_ID_REGEX), lower case, since it lower-cases the id
 * before looking for the file.
 */
export const qwenSessionIdPattern =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Whether `qwen --resume <id>` finds a session file named by `id`. */
export function isQwenSessionId(id: string): boolean {
  return qwenSessionIdPattern.test(id);
}

/** Whether Qwen Code lists a file named `<id>.jsonl` as a session. */
export function isQwenFileId(id: string): boolean {
  return qwenFileIdPattern.test(id);
}

/** The Qwen Code session id for a session id of any harness: kept when `qwen --resume` takes it, else a UUID v5 of it. */
export function qwenSessionId(foreignId: string): string {
  return isQwenSessionId(foreignId) ? foreignId : uuidV5(`session:${foreignId}`, qwenCodeNamespace);
}

/** The id of record `index` of session `sessionId` as txcript writes it. */
export function qwenRecordId(sessionId: string, index: number): string {
  return uuidV5(`record:${sessionId}:${index}`, qwenCodeNamespace);
}

/** Qwen Code's project directory name for a cwd (paths.ts sanitizeCwd on POSIX). */
export function qwenProjectDirName(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/** `qwen --resume=<id>`: the id in the same word, so no id is ever read as a flag or a prompt. */
export function qwenResumeCommand(id: string): string[] {
  return ["qwen", `--resume=${id}`];
}
