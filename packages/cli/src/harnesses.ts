// The one registry of harnesses the CLI knows: each id's codec, aliases,
// file extension, store (when the harness keeps sessions on disk), the
// codec's documented projection, and how `continue` treats it. Commands
// look harnesses up here only; they never import a codec package directly.
import { AmpStore, ampCodec, ampProject } from "@txcript/amp";
import {
  ClaudeCodeStore,
  claudeCodeCodec,
  claudeCodeProject,
  claudeResumeCommand,
  commonToClaudeCodeLines,
} from "@txcript/claude-code";
import {
  type Codec,
  type ConversionOptions,
  commonCodec,
  type Store,
  type Transcript,
  TxcriptError,
} from "@txcript/core";
import { detectStreamJsonDialect, streamJsonCodec, streamJsonProject } from "@txcript/stream-json";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds codecs of any native body
export type AnyCodec = Codec<any, any, any>;
export type Environment = Record<string, string | undefined>;

/** What a command knows when it picks read or write options for a codec. */
export interface OptionContext {
  /** The harness the input was read from (for a writer choosing a dialect). */
  from?: string;
  /** `--dialect` as given. */
  dialect?: string;
  /** Start time for formats without timestamps. */
  startTime?: Date;
  /** The input's native text (a writer matching the input's dialect). */
  sourceText?: string;
}

export interface Harness {
  id: string;
  displayName: string;
  /** Other spellings accepted wherever a harness is named. */
  aliases: readonly string[];
  codec: AnyCodec;
  /** Extension of one session file (batch conversion and fixtures name files with it). */
  extension: string;
  /** The codec's documented normalization (what toCommon(fromCommon(c)) equals). */
  project: (transcript: Transcript) => Transcript;
  readOptions?: (context: OptionContext) => ConversionOptions & Record<string, unknown>;
  writeOptions?: (context: OptionContext) => ConversionOptions & Record<string, unknown>;
  /**
   * For a JSON-lines format whose writer can print one line at a time: the
   * lines `codec.serialize(codec.fromCommon(t))` is made of, each followed by
   * a newline in the file. `convert -o` streams them to the file.
   */
  writeLines?: (
    transcript: Transcript,
    options: ConversionOptions & Record<string, unknown>,
  ) => Iterable<string>;
  /** The harness's session store; `root` overrides the default location. */
  store?: (environment: Environment, root?: string) => Store<unknown>;
  /** Why `continue --with` this harness is refused, and what to do instead. */
  continueRefusal?: { reason: string; instead: string };
  /** The default command that resumes a written session (argv, no shell). */
  resumeCommand?: (id: string) => string[];
}

const identity = (transcript: Transcript): Transcript => transcript;

const common: Harness = {
  id: "common",
  displayName: "Common document",
  aliases: ["txcript", "common-json"],
  codec: commonCodec,
  extension: ".common.json",
  project: identity,
  continueRefusal: {
    reason: "the Common document is an exchange format, not a harness: nothing would resume it",
    instead: "use `txcript export` to write a Common document",
  },
};

const amp: Harness = {
  id: "amp",
  displayName: "Amp thread",
  aliases: ["amp-thread", "sourcegraph-amp"],
  codec: ampCodec,
  extension: ".json",
  project: ampProject,
  store: (environment, root) =>
    new AmpStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  continueRefusal: {
    reason:
      "current Amp builds are server-authoritative: they neither read nor write the local threads directory, so a thread file written there would never be seen",
    instead:
      "give Amp the conversation as context instead: `txcript export <ref>` writes it as Common JSON, `txcript view <ref>` as text",
  },
};

const claudeCode: Harness = {
  id: "claude_code",
  displayName: "Claude Code session",
  aliases: ["claude", "claude-code", "claudecode", "cc"],
  codec: claudeCodeCodec,
  extension: ".jsonl",
  project: (transcript) => claudeCodeProject(transcript),
  writeLines: commonToClaudeCodeLines,
  store: (environment, root) =>
    new ClaudeCodeStore({ env: environment, ...(root === undefined ? {} : { root }) }),
  resumeCommand: (id) => [...claudeResumeCommand(id).argv],
};

const streamJson: Harness = {
  id: "stream_json",
  displayName: "stream-json capture of Amp or Claude Code",
  aliases: ["stream-json", "streamjson", "jsonl-stream"],
  codec: streamJsonCodec,
  extension: ".jsonl",
  project: streamJsonProject("claude"),
  readOptions: ({ startTime }) => (startTime === undefined ? {} : { startTime }),
  writeOptions: ({ from, dialect, sourceText }) => ({
    dialect:
      dialect === "amp" || dialect === "claude"
        ? dialect
        : from === "amp"
          ? "amp"
          : from === "stream_json" && sourceText !== undefined
            ? detectStreamJsonDialect(sourceText)
            : "claude",
  }),
};

/** Every harness, in detection order: the most specific sniff first. */
export const harnesses: readonly Harness[] = [common, amp, claudeCode, streamJson];

/** Ids and aliases, for help texts and error hints. */
export function harnessNames(): string {
  return harnesses.map((harness) => harness.id).join(", ");
}

function normalize(name: string): string {
  return name.trim().toLowerCase().replaceAll("-", "_");
}

/** The harness named by an id or alias (case-insensitive, `-` and `_` alike). */
export function findHarness(name: string): Harness {
  const wanted = normalize(name);
  for (const harness of harnesses) {
    if (normalize(harness.id) === wanted) return harness;
    if (harness.aliases.some((alias) => normalize(alias) === wanted)) return harness;
  }
  throw new TxcriptError("USAGE", `unknown harness ${JSON.stringify(name)}`, {
    hint: `expected one of ${harnessNames()}`,
  });
}

/** The first harness whose codec recognizes the text. */
export function detectHarness(text: string, file?: string): Harness {
  for (const harness of harnesses) if (harness.codec.detect(text)) return harness;
  throw new TxcriptError("UNKNOWN_FORMAT", "cannot tell which harness wrote this input", {
    ...(file === undefined ? {} : { location: { file } }),
    hint: `pass --from with one of ${harnessNames()}`,
  });
}

/** The harnesses that keep sessions on disk, with their stores. */
export function stores(environment: Environment): { harness: Harness; store: Store<unknown> }[] {
  return harnesses.flatMap((harness) =>
    harness.store ? [{ harness, store: harness.store(environment) }] : [],
  );
}
