// Where Gemini CLI keeps recordings and how it names them (0.61.0):
// `$GEMINI_CLI_HOME/.gemini` (else the home directory's), per project
// `tmp/<slug>/chats/` with the slug from projects.json (or, up to 0.28,
// `tmp/<sha256 of the project root>/`), files `session-<minute>-<id8>.jsonl`.
// Also the session id rule a writer keeps to and the resume command.
import * as path from "node:path";
import { nodeCrypto, uuidV5 } from "@txcript/core";

export { defaultGeminiRoot } from "./gemini-cli-store-root.js";

/** The namespace of the UUIDs this package derives (session and message ids). */
export const geminiCliNamespace = "5d0c7f3e-4a0b-5b55-9f3c-6e1f2a8b9c41";

/** The project hash Gemini CLI writes (and named directories by up to 0.28): sha256 of the root, hex. */
export function geminiProjectHash(projectRoot: string): string {
  return nodeCrypto().createHash("sha256").update(projectRoot).digest("hex");
}

/** A new slug for a project root, before collision suffixes (projectRegistry slugify). */
export function geminiProjectSlug(projectRoot: string): string {
  const base = path.basename(projectRoot) || "project";
  return (
    base
      .toLowerCase()
      .replace(/[^a-z0-9]/g, "-")
      .replace(/-+/g, "-")
      .replace(/^-|-$/g, "") || "project"
  );
}

/**
 * Whether Gemini CLI can name a file by this id and find it with `--resume`:
 * filename-safe as its sanitizer leaves it, not a list index, not `latest`.
 */
export function isGeminiSessionId(id: string): boolean {
  return /^[A-Za-z0-9_-]+$/.test(id) && !/^\d+$/.test(id) && id !== "latest";
}

/** The session id a foreign id is written under: itself when usable, else a UUID v5 of it. */
export function geminiSessionId(foreignId: string): string {
  return isGeminiSessionId(foreignId)
    ? foreignId
    : uuidV5(`session:${foreignId}`, geminiCliNamespace);
}

/** `session-YYYY-MM-DDTHH-MM-<first 8 of id>.jsonl`, the name Gemini CLI gives a new recording. */
export function geminiSessionFileName(sessionId: string, startedAt: Date): string {
  const minute = startedAt.toISOString().slice(0, 16).replace(/:/g, "-");
  return `session-${minute}-${sessionId.slice(0, 8)}.jsonl`;
}

/**
 * `gemini --resume=<id>`, to run in the project directory (resume only looks in
 * that project). The `=` form keeps an id such as `--yolo` a value (yargs takes
 * what follows `=` verbatim), never an option.
 */
export function geminiResumeCommand(sessionId: string): string[] {
  return ["gemini", `--resume=${sessionId}`];
}
