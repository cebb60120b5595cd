// The one error class of txcript. Every harness maps its failures onto the
// closed set of codes below; a message says what failed, where (file, line,
// JSON path) and what was expected. Recognized across duplicate installs of
// this package through a Symbol.for marker, not instanceof.

const marker: unique symbol = Symbol.for("txcript.error") as never;

export const errorCodes = [
  /** Text that is not JSON (or not JSON lines). */
  "INVALID_JSON",
  /** JSON that does not have the shape the format requires. */
  "INVALID_DOCUMENT",
  /** The input's format could not be recognized. */
  "UNKNOWN_FORMAT",
  /** A feature or target the harness cannot carry. */
  "UNSUPPORTED",
  /** An operation refused on purpose (continue into Amp, a range that cuts a tool call). */
  "REFUSED",
  /** A session, file or harness that does not exist. */
  "NOT_FOUND",
  /** A reference that matches more than one session. */
  "AMBIGUOUS",
  /** The target already exists, or another writer got there first. */
  "CONFLICT",
  /** A path or id that would escape its store, or a symlink where a file must be. */
  "UNSAFE_PATH",
  /** Reading or writing a file failed. */
  "IO",
  /** Input past a size or depth limit. */
  "TOO_LARGE",
  /** Bad command-line usage or options. */
  "USAGE",
  /** What was written does not read back as what was meant (nothing is left behind). */
  "MISMATCH",
] as const;

export type TxcriptErrorCode = (typeof errorCodes)[number];

export interface TxcriptErrorLocation {
  file?: string;
  /** 1-based line number. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** JSON path such as `$.messages[3].content[0]`. */
  path?: string;
}

export interface TxcriptErrorOptions {
  harness?: string;
  location?: TxcriptErrorLocation;
  /** What would have been valid, or what to do instead. */
  hint?: string;
  cause?: unknown;
}

export class TxcriptError extends Error {
  override readonly name = "TxcriptError";
  readonly code: TxcriptErrorCode;
  readonly harness: string | undefined;
  readonly location: TxcriptErrorLocation;
  readonly hint: string | undefined;
  readonly [marker] = true;

  constructor(code: TxcriptErrorCode, message: string, options: TxcriptErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.harness = options.harness;
    this.location = { ...options.location };
    this.hint = options.hint;
  }

  /** True for a TxcriptError from any copy of this package. */
  static isInstance(value: unknown): value is TxcriptError {
    return (
      typeof value === "object" &&
      value !== null &&
      (value as Record<symbol, unknown>)[marker] === true
    );
  }

  /** A copy with more location facts (the caller knows the file, say). */
  withLocation(location: TxcriptErrorLocation): TxcriptError {
    const copy = new TxcriptError(this.code, this.message, {
      ...(this.harness === undefined ? {} : { harness: this.harness }),
      location: {
        ...location,
        ...this.location,
        ...(location.file === undefined ? {} : { file: location.file }),
      },
      ...(this.hint === undefined ? {} : { hint: this.hint }),
      cause: this.cause ?? this,
    });
    return copy;
  }

  /** One line: `file:line: message at $.path (hint)`. */
  format(): string {
    const { file, line, column, path } = this.location;
    let where = "";
    if (file !== undefined) where = file;
    if (line !== undefined)
      where += `${where ? ":" : "line "}${line}${column !== undefined ? `:${column}` : ""}`;
    let text = where ? `${where}: ${this.message}` : this.message;
    if (path !== undefined && path !== "$") text += ` at ${path}`;
    if (this.hint !== undefined) text += ` (${this.hint})`;
    return text;
  }
}

/** Build a JSON path string from segments: `["messages", 3, "content"]` → `$.messages[3].content`. */
export function jsonPath(segments: readonly (string | number)[]): string {
  let path = "$";
  for (const segment of segments) {
    if (typeof segment === "number") path += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) path += `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}
