// The hostile corpus through the library, for what the CLI does not print:
// the TxcriptError code behind each refusal. Each command's steps are taken
// as the CLI takes them, from the registry: the harness named by `--from`
// (or detected), the read leg (parse, toCommon), then the command's own
// write: view renders text, export writes Common, convert and continue write
// their target harness, streamed through its serializeChunks where it has
// one (as the CLI writes), else through serialize.
import { readFileSync } from "node:fs";
import {
  commonCodec,
  convert,
  type TxcriptError,
  TxcriptError as TxcriptErrorClass,
  toText,
  toTranscript,
  type Warning,
} from "@txcript/core";
import { defaultRegistry } from "@txcript/harnesses";

export const hostileCommands = ["view", "export", "convert", "continue"] as const;
export type HostileCommand = (typeof hostileCommands)[number];

/** The harness `convert` writes in the corpus test: Amp for Claude Code input, else Claude Code. */
export function convertTarget(from: string | undefined): string {
  return from === "claude_code" ? "amp" : "claude_code";
}
/** The harness `continue --with` names in the corpus test. */
export const continueTarget = "claude_code";

const startTime = new Date("2026-01-01T00:00:00.000Z");

/** What the library answers for one command on one file: read, or refused with this error. */
export function libraryOutcome(
  file: string,
  name: string,
  command: HostileCommand,
  from: string | undefined,
): { read: true } | { read: false; error: TxcriptError } {
  try {
    const text = readFileSync(file, "utf8");
    const source =
      from === undefined ? defaultRegistry.detect(text, name) : defaultRegistry.find(from);
    const read = source.readOptions?.({ startTime }) ?? {};
    if (command === "view") {
      toText(toTranscript(text, source.codec, { file: name, read }).transcript);
      return { read: true };
    }
    const target =
      command === "export"
        ? undefined
        : defaultRegistry.find(command === "convert" ? convertTarget(from) : continueTarget);
    const write = target?.writeOptions?.({ from: source.id, sourceText: text }) ?? {};
    const chunks = target?.serializeChunks;
    if (chunks === undefined) {
      convert(text, source.codec, target?.codec ?? commonCodec, { file: name, read, write });
      return { read: true };
    }
    const { transcript } = toTranscript(text, source.codec, { file: name, read });
    try {
      for (const chunk of chunks(transcript, write)) void chunk;
    } catch (error) {
      throw TxcriptErrorClass.isInstance(error) && error.location.file === undefined
        ? error.withLocation({ file: name })
        : error;
    }
    return { read: true };
  } catch (error) {
    if (TxcriptErrorClass.isInstance(error)) return { read: false, error };
    throw error;
  }
}

/** The read leg's warnings for a file `from` reads (it must read it). */
export function readWarnings(file: string, name: string, from: string): Warning[] {
  const text = readFileSync(file, "utf8");
  const source = defaultRegistry.find(from);
  const read = source.readOptions?.({ startTime }) ?? {};
  return toTranscript(text, source.codec, { file: name, read }).warnings;
}
