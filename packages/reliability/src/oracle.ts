// The oracle every fuzz case answers to: a parser either reads the text or
// throws a TxcriptError that carries a location; whatever it reads converts
// to a valid Common transcript that every writer can write (or refuse with
// a TxcriptError); and Object.prototype is never touched. A broken rule
// throws a plain Error that says which rule, which stage and what escaped.
import { type Transcript, TxcriptError, validateTranscript } from "@txcript/core";
import { findKnownBug } from "./known-bugs.js";
import { type ParserUnderTest, parsers } from "./parsers.js";

/** The name parse() is told the text came from; a parse error must carry it. */
export const fuzzFile = "fuzz-input.txt";

const prototypeNames = Object.getOwnPropertyNames(Object.prototype).sort().join(",");
const arrayPrototypeNames = Object.getOwnPropertyNames(Array.prototype).sort().join(",");

export class OracleViolation extends Error {
  override readonly name = "OracleViolation";
}

function describeEscape(error: unknown): string {
  if (error instanceof Error) {
    const frames = (error.stack ?? "").split("\n").slice(1, 4).join(" | ");
    return `${error.name}: ${error.message.slice(0, 300)} [${frames.trim()}]`;
  }
  return `a thrown ${typeof error}: ${String(error).slice(0, 300)}`;
}

/** Object.prototype and Array.prototype have exactly their own built-in names, and `{}` has no stray keys. */
export function assertPrototypesClean(): void {
  const object = Object.getOwnPropertyNames(Object.prototype).sort().join(",");
  const array = Object.getOwnPropertyNames(Array.prototype).sort().join(",");
  // biome-ignore lint/suspicious/noExplicitAny: probing for pollution
  const probe: any = {};
  if (object !== prototypeNames || array !== arrayPrototypeNames || probe.polluted !== undefined) {
    throw new OracleViolation("Object.prototype or Array.prototype was modified");
  }
}

type Stage = "parse" | "serialize" | "toCommon" | "fromCommon";

function checkError(parser: string, stage: Stage, error: unknown): TxcriptError {
  if (!TxcriptError.isInstance(error)) {
    throw new OracleViolation(
      `${parser}.${stage} let a non-TxcriptError escape: ${describeEscape(error)}`,
      {
        cause: error,
      },
    );
  }
  const { file, line, path } = error.location;
  if (stage === "parse" && file !== fuzzFile) {
    throw new OracleViolation(
      `${parser}.parse threw ${error.code} without the file it was given (location ${JSON.stringify(error.location)}): ${error.message}`,
      { cause: error },
    );
  }
  // A syntax error always has a position; a whole-document error is located by its file.
  if (error.code === "INVALID_JSON" && line === undefined && path === undefined) {
    throw new OracleViolation(
      `${parser}.${stage} threw ${error.code} with no line or JSON path (location ${JSON.stringify(error.location)}): ${error.message}`,
      { cause: error },
    );
  }
  return error;
}

export type Outcome =
  | { kind: "rejected"; stage: Stage; error: TxcriptError }
  | { kind: "read"; messages: number }
  | { kind: "known-bug"; id: string };

/** True when a value holds NaN or ±Infinity anywhere (JSON cannot carry them). */
export function holdsNonFinite(value: unknown): boolean {
  // Iterative: the values under test may be 100,000 levels deep.
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "number" && !Number.isFinite(item)) return true;
    if (typeof item === "object" && item !== null) pending.push(...Object.values(item));
  }
  return false;
}

/**
 * Run one text through a parser and on through every writer. Returns what
 * happened; throws OracleViolation when a rule is broken.
 */
export function checkText(
  parser: ParserUnderTest,
  text: string,
  options: { tolerateKnownBugs?: boolean; targets?: readonly ParserUnderTest[] } = {},
): Outcome {
  try {
    return runStages(parser, text, options.targets ?? parsers);
  } catch (error) {
    if (error instanceof OracleViolation && options.tolerateKnownBugs !== false) {
      const bug = findKnownBug(parser.id, error.message, text);
      if (bug) return { kind: "known-bug", id: bug.id };
    }
    throw error;
  } finally {
    assertPrototypesClean();
  }
}

function runStages(
  parser: ParserUnderTest,
  text: string,
  targets: readonly ParserUnderTest[],
): Outcome {
  const { codec, id } = parser;
  let native: unknown;
  try {
    native = codec.parse(text, { file: fuzzFile });
  } catch (error) {
    return { kind: "rejected", stage: "parse", error: checkError(id, "parse", error) };
  }
  try {
    const again = codec.serialize(native);
    if (typeof again !== "string")
      throw new OracleViolation(`${id}.serialize returned a ${typeof again}`);
  } catch (error) {
    if (error instanceof OracleViolation) throw error;
    checkError(id, "serialize", error);
  }
  let transcript: unknown;
  try {
    transcript = codec.toCommon(native, parser.readOptions);
  } catch (error) {
    return { kind: "rejected", stage: "toCommon", error: checkError(id, "toCommon", error) };
  }
  try {
    validateTranscript(transcript);
  } catch (error) {
    // A transcript too deep to validate is refused cleanly (TOO_LARGE): judge the writers anyway,
    // since they must refuse it the same way.
    if (TxcriptError.isInstance(error) && error.code === "TOO_LARGE") {
      // fall through to the writers
    } else
      throw new OracleViolation(
        `${id}.toCommon returned an invalid Common transcript: ${TxcriptError.isInstance(error) ? error.format() : describeEscape(error)}${holdsNonFinite(transcript) ? " (it holds a non-finite number)" : ""}`,
        { cause: error },
      );
  }
  const valid = transcript as Transcript;
  for (const writer of targets.flatMap((target) => target.writers)) {
    try {
      const written = writer.codec.serialize(writer.codec.fromCommon(valid, writer.options));
      if (typeof written !== "string")
        throw new OracleViolation(
          `${id} → ${writer.label}: serialize returned a ${typeof written}`,
        );
    } catch (error) {
      if (error instanceof OracleViolation) throw error;
      checkError(`${id} → ${writer.label}`, "fromCommon", error);
    }
  }
  return { kind: "read", messages: valid.messages.length };
}
