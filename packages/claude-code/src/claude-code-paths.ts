import { isUuid, uuidV5 } from "@txcript/core";

export { defaultClaudeProjectsRoot } from "./claude-code-store-root.js";

/** Namespace of every UUID this package derives (v5), fixed forever. */
export const claudeCodeNamespace = "5b0e3c1e-6f57-4a8e-9d1c-7c1a0d2e4f31";

/** Claude Code keeps at most this many characters of the munged cwd (2.1.332, observed in its binary). */
const maximumDirectoryLength = 200;

function javaStringHash(text: string): number {
  let hash = 0;
  for (let index = 0; index < text.length; index += 1) {
    hash = ((hash << 5) - hash + text.charCodeAt(index)) | 0;
  }
  return hash;
}

/**
 * The directory name Claude Code gives a cwd under `projects/`: every
 * character other than an ASCII letter or digit becomes "-"
 * (`/Users/alice/src/app` → `-Users-alice-src-app`); a name longer than 200
 * characters is cut and suffixed with a base-36 hash of the cwd.
 */
export function mungeClaudeProjectDir(cwd: string): string {
  const munged = cwd.replace(/[^a-zA-Z0-9]/g, "-");
  if (munged.length <= maximumDirectoryLength) return munged;
  return `${munged.slice(0, maximumDirectoryLength)}-${Math.abs(javaStringHash(cwd)).toString(36)}`;
}

/**
 * The Claude Code session id for a session id of any harness: a UUID is kept
 * (lowercased, as Claude Code writes them); anything else maps to a
 * deterministic version-5 UUID, so converting the same session twice lands on
 * the same file.
 */
export function claudeSessionId(foreignId: string): string {
  if (isUuid(foreignId)) return foreignId.toLowerCase();
  return uuidV5(`session:${foreignId}`, claudeCodeNamespace);
}

/** How to resume a session in Claude Code: run `argv` in the session's cwd. */
export interface ClaudeResumeCommand {
  readonly harness: "claude_code";
  readonly argv: readonly string[];
  readonly sessionId: string;
}

/** `claude --resume=<id>`: the `=` form keeps an id such as `-p` a value, never an option. */
export function claudeResumeCommand(sessionId: string): ClaudeResumeCommand {
  return { harness: "claude_code", argv: ["claude", `--resume=${sessionId}`], sessionId };
}
