import { isUuid, uuidV5 } from "@txcript/core";

export { defaultCopilotRoot } from "./copilot-cli-store-root.js";

/** The namespace of the UUIDs this package derives (session and event ids). */
export const copilotCliNamespace = "c103acb9-136b-4ca9-b195-498128c9451f";

/** The Copilot CLI version the writer names in session.start, the one it was checked with. */
export const copilotCliVersion = "1.0.102";

/** Whether an id names a session directory as Copilot CLI names them: a lowercase UUID. */
export function isCopilotSessionId(id: string): boolean {
  return isUuid(id) && id === id.toLowerCase();
}

/** The session id a foreign id is written under: itself when it is one, else a UUID v5 of it. */
export function copilotSessionId(foreignId: string): string {
  return isCopilotSessionId(foreignId)
    ? foreignId
    : uuidV5(`session:${foreignId}`, copilotCliNamespace);
}

/**
 * `copilot --resume=<id>`, the form Copilot CLI itself prints after a run;
 * the id in the same argv word as its flag stays a value, never an option.
 */
export function copilotResumeCommand(sessionId: string): string[] {
  return ["copilot", `--resume=${sessionId}`];
}
