// Where GitHub Copilot CLI keeps sessions and how it names them (1.0.102):
// `$COPILOT_HOME` (else `~/.copilot`), each session a directory
// `session-state/<uuid>/` holding `events.jsonl`; before that, a flat
// `session-state/<uuid>.jsonl` (read, no longer resumable). Also the
// session id rule a writer keeps to and the resume command.
import * as os from "node:os";
import * as path from "node:path";
import { isUuid, uuidV5 } from "@txcript/core";

/** The namespace of the UUIDs this package derives (session and event ids). */
export const copilotCliNamespace = "c103acb9-136b-4ca9-b195-498128c9451f";

/** The Copilot CLI version the writer names in session.start, the one it was checked with. */
export const copilotCliVersion = "1.0.102";

/** `$COPILOT_HOME` when set, else `<home>/.copilot`. */
export function defaultCopilotRoot(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.COPILOT_HOME;
  if (configured !== undefined && configured !== "") return configured;
  return path.join(env.HOME || env.USERPROFILE || os.homedir(), ".copilot");
}

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
