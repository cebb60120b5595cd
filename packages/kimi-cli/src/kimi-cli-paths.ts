// How Kimi CLI names its sessions (the share directory is in
// kimi-cli-store-root.ts): the work-dir directory sessions/<md5 of the
// work dir's path> (a non-local KAOS prefixes "<kaos>_"), the session
// directory <session id>/ holding context.jsonl, the session id a foreign id
// maps to, and the resume command. Pure functions; no file system access.
import { isUuid, nodeCrypto, uuidV5 } from "@txcript/core";

/** Namespace of every UUID this package derives (v5), fixed forever. */
export const kimiCliNamespace = "0b7f3c52-9d41-5e6a-8f20-4c1d7e9a3b65";

/** The name of a work dir's session directory: the hex MD5 of its path (metadata.py WorkDirMeta.sessions_dir), for the local KAOS. */
export function kimiWorkDirHash(workDir: string): string {
  return nodeCrypto().createHash("md5").update(workDir, "utf8").digest("hex");
}

/** Names txcript reads as a session directory or a legacy `<id>.jsonl`: one path segment, no dot first. */
export const kimiSessionIdPattern = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

/** Whether `id` can name a session directory in the store (no separator, no `..`, no leading dot). */
export function isKimiSessionId(id: string): boolean {
  return kimiSessionIdPattern.test(id);
}

/** The session id txcript writes for a session id of any harness: kept when it is a UUID (Kimi CLI's own are uuid4), else a UUID v5 of it. */
export function kimiSessionId(foreignId: string): string {
  return isUuid(foreignId) && foreignId === foreignId.toLowerCase()
    ? foreignId
    : uuidV5(`session:${foreignId}`, kimiCliNamespace);
}

/** `kimi --session=<id>`: the id in the same word as the flag, so it is never read as an option. */
export function kimiResumeCommand(id: string): string[] {
  return ["kimi", `--session=${id}`];
}
