// Where Codex keeps rollouts and how it names them: the home
// (CODEX_HOME, else ~/.codex), the dated sessions directory and file name in
// local time, the UUIDv7 a foreign session id maps to, and the resume
// command. Pure functions; no file system access.
import * as path from "node:path";
import { isUuid, nodeCrypto } from "@txcript/core";

export { defaultCodexHome } from "./codex-store-root.js";

function hex(value: number, digits: number): string {
  return value.toString(16).padStart(digits, "0");
}

/**
 * The Codex session id for a session id of any harness: a UUID is kept
 * (lowercased); anything else maps to a deterministic UUIDv7 whose time field
 * is `timestamp` (so Codex's listing order follows time) and whose random
 * bits come from SHA-256 of the id, so converting twice lands on one file.
 */
export function codexSessionId(foreignId: string, timestamp: string): string {
  if (isUuid(foreignId)) return foreignId.toLowerCase();
  const ms = Math.max(0, Math.min(Date.parse(timestamp) || 0, 2 ** 48 - 1));
  const digest = nodeCrypto().createHash("sha256").update(`session:${foreignId}`, "utf8").digest();
  const time = hex(ms, 12);
  const randomA = hex(((digest[0] as number) << 4) | ((digest[1] as number) >> 4), 3);
  const variant = hex(0x8000 | (((digest[2] as number) << 8) & 0x3f00) | (digest[3] as number), 4);
  const randomB = digest.subarray(4, 10).toString("hex");
  return `${time.slice(0, 8)}-${time.slice(8)}-7${randomA}-${variant}-${randomB}`;
}

function two(value: number): string {
  return String(value).padStart(2, "0");
}

/**
 * `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl` for a session
 * started at `timestamp`, in the machine's local time as Codex names them.
 */
export function rolloutRelativePath(id: string, timestamp: string): string {
  const time = new Date(Date.parse(timestamp) || 0);
  const year = String(time.getFullYear()).padStart(4, "0");
  const month = two(time.getMonth() + 1);
  const day = two(time.getDate());
  const stamp = `${year}-${month}-${day}T${two(time.getHours())}-${two(time.getMinutes())}-${two(time.getSeconds())}`;
  return path.join("sessions", year, month, day, `rollout-${stamp}-${id}.jsonl`);
}

/** The uuid at the end of a rollout file name (`rollout-<ts>-<uuid>.jsonl[.zst]`), else undefined. */
export function rolloutIdOf(fileName: string): string | undefined {
  const match =
    /^rollout-(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2})-([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.jsonl(\.zst)?$/.exec(
      fileName,
    );
  return match?.[2]?.toLowerCase();
}

/**
 * How to resume a session in Codex: run `argv` in the session's cwd. The id
 * follows `--`, so clap reads it as the SESSION_ID positional even when it
 * begins with `-`.
 */
export function codexResumeCommand(sessionId: string): string[] {
  return ["codex", "resume", "--", sessionId];
}
