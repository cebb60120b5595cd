// `--json` results: one JSON object on stdout per command run — what was
// read, what was written where, the session id, the resume command, and
// every loss with its leg, code, kind and count. The shape is documented by
// docs/schema/cli-result.schema.json; a test validates every command's
// output against it.
import { TxcriptError } from "@txcript/core";
import type { Input } from "./input.js";
import { type Io, write } from "./io.js";

export const resultFormat = "txcript.result/v1";

export interface ResultOutput {
  harness: string;
  /** The file or store path written. */
  path: string;
  sessionId?: string;
  /** The input it came from (batch and fixtures runs). */
  source?: string;
}

export interface CommandResult {
  command: "convert" | "export" | "continue" | "fixtures";
  input?: { harness: string; file: string; sessionId?: string };
  outputs: ResultOutput[];
  /** continue: the argv that resumes the written session (launched unless --no-resume). */
  resumeCommand?: string[];
  /** continue: whether it was launched, and its exit status. */
  resumed?: { launched: boolean; status: number | null };
  /** Batch: the inputs that failed, with the error line. */
  failures?: { file: string; error: string; code: string | null }[];
  losses: Record<string, unknown>[];
}

export function inputJson(
  input: Input,
  sessionId?: string,
): { harness: string; file: string; sessionId?: string } {
  return {
    harness: input.harness.id,
    file: input.file,
    ...(sessionId === undefined ? {} : { sessionId }),
  };
}

/** --json needs the converted text to go to a file: stdout carries the result. */
export function requireFileOutput(output: string | undefined, command: string): void {
  if (output === undefined || output === "-")
    throw new TxcriptError(
      "USAGE",
      `${command} --json needs -o FILE: stdout carries the JSON result`,
      {
        hint: `see txcript ${command} --help`,
      },
    );
}

export async function printResult(io: Io, result: CommandResult): Promise<void> {
  await write(io.stdout, `${JSON.stringify({ format: resultFormat, ...result }, null, 2)}\n`);
}
