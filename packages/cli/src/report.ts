// Errors as the user sees them: one line on stderr,
// `txcript: <file>:<line>: <what> (<hint>)`, a stack trace only with
// --debug, and the exit code by class (listed in `txcript --help`).
import { TxcriptError } from "@txcript/core/errors";

/** Exit codes by class: success, bad input or a failed step, usage or refusal, a bug of ours. */
export const exitCodes = { ok: 0, failed: 1, usage: 2, internal: 70 } as const;

export function exitCodeOf(error: unknown): number {
  if (!TxcriptError.isInstance(error)) return exitCodes.internal;
  if (error.code === "USAGE" || error.code === "REFUSED") return exitCodes.usage;
  if (error.code === "MISMATCH") return exitCodes.internal;
  return exitCodes.failed;
}

/** The one-line message; `file` fills in a location the error lacks. */
export function formatError(error: unknown, context: { file?: string } = {}): string {
  if (TxcriptError.isInstance(error)) {
    const located =
      context.file === undefined ? error : (locate(error, context.file) as TxcriptError);
    return `txcript: ${located.format()}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `txcript: internal error: ${message} (rerun with --debug for a stack trace, and please report it)`;
}

/** The error with `file` as its location when it names none (other errors as they are). */
export function locate(error: unknown, file: string): unknown {
  return TxcriptError.isInstance(error) && error.location.file === undefined
    ? error.withLocation({ file })
    : error;
}

/** Run `run`; a TxcriptError without a file that escapes it names `file`. */
export function withFile<T>(file: string, run: () => T): T {
  try {
    return run();
  } catch (error) {
    throw locate(error, file);
  }
}

/** `slices` as they are iterated; a TxcriptError without a file names `file` (a lazy writer's). */
export function* withFileEach<T>(file: string, slices: Iterable<T>): Generator<T> {
  try {
    yield* slices;
  } catch (error) {
    throw locate(error, file);
  }
}

/** The stack traces of an error and its causes, for --debug. */
export function formatStack(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current !== undefined && depth < 5; depth += 1) {
    parts.push(current instanceof Error ? (current.stack ?? current.message) : String(current));
    const next: unknown = current instanceof Error ? current.cause : undefined;
    if (next === current) break;
    current = next;
    if (current !== undefined) parts.push("caused by:");
  }
  return parts.join("\n");
}
