// UUID v5 of a name in this package's namespace. The writer derives one per
// line and two more per assistant message, so it uses core's per-namespace
// function (namespace bytes kept, one-shot SHA-1) rather than uuidV5 per call.
import { uuidV5In } from "@txcript/core";
import { claudeCodeNamespace } from "./claude-code-paths.js";

const derive = uuidV5In(claudeCodeNamespace);

/** The UUID, lower-case with dashes. */
export function claudeUuid(name: string): string {
  return derive(name);
}

/** The 32 hex digits of the UUID (no dashes). */
export function claudeUuidHex(name: string): string {
  return derive(name).replaceAll("-", "");
}
