// Everything a program needs to know about one harness, in one value: its
// codec and the law suite's normalization, how it is named, where it keeps
// sessions, how its writer streams, and whether `continue` can resume into
// it. Each harness package exports one `HarnessDefinition`; the CLI, the
// fuzz targets, the bench and the cross-harness laws build from one
// `HarnessRegistry` of them, so a new harness is one package and one line.
import type { Codec, ConversionOptions, Discovered, HarnessId, Store, Warning } from "./codec.js";
import { TxcriptError } from "./errors.js";
import { readTextFile } from "./files.js";
import type { Transcript } from "./model.js";
import type { HeadLastWriter, StreamReader, StreamWriter } from "./stream.js";

export type Environment = Record<string, string | undefined>;

/** What a caller knows when it picks read or write options for a codec. */
export interface OptionContext {
  /** The harness the input was read from (a writer choosing a dialect). */
  from?: string;
  /** A dialect the person asked for (`--dialect`). */
  dialect?: string;
  /** Start time for formats whose lines carry no timestamps. */
  startTime?: Date;
  /** The input's native text (a writer matching the input's dialect). */
  sourceText?: string;
  /** The time of writing, for formats that record it (default: now); fixed for reproducible output. */
  now?: Date;
}

export type CodecOptions = ConversionOptions & Record<string, unknown>;

/** Why continuing into a harness is refused, and what to do instead. */
export interface ContinueRefusal {
  reason: string;
  instead: string;
}

/** One dialect of a harness that writes several. */
export interface HarnessVariant {
  label: string;
  project: (transcript: Transcript) => Transcript;
  writeOptions: CodecOptions;
}

/** What a store saved, as the steps after saving see it. */
export interface SavedSession {
  id: string;
  path: string;
}

/** What a harness's offline check is given: the program to run and where the session lives. */
export interface ProgramCheckContext {
  /** The program to run (an absolute path, found by the caller). */
  bin: string;
  /** The root of the store the session was saved into (what the check copies). */
  storeRoot: string;
  /** The directory the session is continued in. */
  cwd: string;
  /** Every child the check starts is killed after this long. */
  timeoutMs: number;
}

/** What the real program made of a saved session. */
export interface ProgramCheckResult {
  ok: boolean;
  /** What the program reported, in words (the reason when it failed). */
  detail: string;
}

/**
 * The harness's own program checking a saved session offline (`continue
 * --verify`): on a copy of what was saved, in a temporary home, with fake
 * keys and every base URL at 127.0.0.1, each child under a timeout. The
 * saved session itself is never touched. Never throws for a failed check.
 */
export interface ProgramCheck {
  /** The program's name on PATH. */
  readonly program: string;
  /** Arguments that make it print its version. */
  readonly versionArgs: readonly string[];
  /** The check in one line (help texts, reports). */
  readonly description: string;
  readonly run: (saved: SavedSession, context: ProgramCheckContext) => Promise<ProgramCheckResult>;
}

/**
 * What loading a session by its file is given (HarnessDefinition.loadFile):
 * the environment its store lives in, the store's entry when discovery found
 * it, and how to read a file's text (the caller's input limit applies).
 */
export interface LoadContext {
  environment: Environment;
  /** The store's entry for the session, when the file was found by discovery. */
  discovered?: Discovered;
  /** The session file's text, when the caller already read it (taken, not kept). */
  text?: string;
  /** Reads a file's text whole; default: core's readTextFile. */
  readText?: (file: string) => Promise<string>;
  /**
   * A named loss of the load itself (a subagent file the session names and
   * that is not beside it), reported like a read leg's warning.
   */
  onWarning?: (warning: Warning) => void;
}

/** A file's text through the context's reader (the main file's own text when given). */
export function loadText(file: string, context: LoadContext, harness?: string): Promise<string> {
  if (context.readText !== undefined) return context.readText(file);
  return readTextFile(file, harness === undefined ? {} : { harness });
}

export interface HarnessDefinition<Native = unknown> {
  readonly id: HarnessId;
  readonly displayName: string;
  /** Other spellings accepted wherever a harness is named. */
  readonly aliases: readonly string[];
  /** Extension of one session file (batch conversion and fixtures name files with it). */
  readonly extension: string;
  // biome-ignore lint/suspicious/noExplicitAny: options are the codec's own
  readonly codec: Codec<Native, any, any>;
  /** The codec's documented normalization: what toCommon(fromCommon(c)) equals. */
  readonly project: (transcript: Transcript) => Transcript;
  /**
   * For a harness that writes more than one dialect (stream-json: Claude and
   * Amp): each dialect's write options and normalization, so the laws and
   * the cross-harness pairs run once per dialect. Absent: one, the default.
   */
  readonly variants?: readonly HarnessVariant[];
  readonly readOptions?: (context: OptionContext) => CodecOptions;
  readonly writeOptions?: (context: OptionContext) => CodecOptions;
  /**
   * The text of `codec.serialize(codec.fromCommon(t, options))` in pieces, in
   * order, so a writer can stream a long session (a JSON-lines format yields
   * one line and its newline at a time). Their concatenation is that text.
   */
  readonly serializeChunks?: (transcript: Transcript, options: CodecOptions) => Iterable<string>;
  /**
   * Reads the format line by line (stream.ts): the same meta, messages,
   * subagents and warnings as `toCommon(parse(text))`, in memory that does
   * not grow with the file. Absent for whole-document formats.
   */
  readonly readStream?: StreamReader;
  /**
   * Writes the text of `serialize(fromCommon(t))` from parts, in pieces,
   * with the same warnings, without holding the whole transcript.
   */
  readonly writeStream?: StreamWriter;
  /**
   * The same text with its first piece produced last (stream.ts's
   * HeadLastWriter), for a format whose first line depends on the rest:
   * written to a file, the input is read once where `writeStream` replays it.
   */
  readonly writeStreamHeadLast?: HeadLastWriter;
  /**
   * The one way a session is read from disk: the native body of the session
   * whose file is `file`, with everything that belongs to it (Claude Code
   * 2.x subagent files, Codex spawned-agent rollouts, Gemini CLI subagent
   * recordings, OpenCode child sessions). A file that sits in the store's
   * layout reads like the stored session (the store's `load(id)` is
   * locate(id) and this); a lone file reads alone, and names as a loss
   * (`onWarning`) each side file it refers to and cannot find. Absent: the
   * codec's parse of the file's text, which is then everything.
   */
  readonly loadFile?: (file: string, context: LoadContext) => Promise<Native>;
  /**
   * When loading `file` reads nothing but that file, the read options that
   * make `readStream` over its lines give what `loadFile` gives (a stored
   * Gemini CLI recording's project root, say), so it may be read line by
   * line instead; undefined when the load reads more (subagent files beside
   * it, a database). Absent: `{}` exactly when there is no loadFile.
   */
  readonly readsAlone?: (file: string, context: LoadContext) => Promise<CodecOptions | undefined>;
  /**
   * When `file` is a side file of a session (a Claude Code subagent file), the
   * session file its `loadFile` reads it with; a batch over a directory then
   * reads it with that session, not as one of its own.
   */
  readonly sideFileOf?: (file: string) => Promise<string | undefined>;
  /** Environment variables the store or resume command reads, with what each means (for help texts). */
  readonly environment?: readonly (readonly [name: string, meaning: string])[];
  /** The harness's session store; `root` overrides the default location. */
  readonly store?: (environment: Environment, root?: string) => Store<Native>;
  /** Why `continue` into this harness is refused (set exactly when there is no resumeCommand). */
  readonly continueRefusal?: ContinueRefusal;
  /** The command that resumes a saved session (argv, no shell), run in the session's cwd. */
  readonly resumeCommand?: (id: string) => string[];
  /**
   * A step between saving and resuming, for harnesses whose own program must
   * take the session in (OpenCode's `import`). Returns the id to resume.
   */
  readonly afterSave?: (
    saved: SavedSession,
    context: { environment: Environment; cwd: string },
  ) => Promise<SavedSession>;
  /** The real program's offline check of a saved session, where it needs no network. */
  readonly programCheck?: ProgramCheck;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds harnesses of any native body
export type AnyHarness = HarnessDefinition<any>;

/**
 * A session read from its file through its harness's own load
 * (`loadFile`), or, for a harness without one, the codec's parse of the
 * file's text. Every reader of a stored session or a session file (the CLI's
 * commands, search, the bench) goes through here.
 */
export async function loadSessionFile<Native>(
  harness: HarnessDefinition<Native>,
  file: string,
  context: LoadContext,
): Promise<Native> {
  if (harness.loadFile !== undefined) return harness.loadFile(file, context);
  const text = context.text ?? (await loadText(file, context, harness.id));
  return harness.codec.parse(text, { file });
}

/**
 * The read options under which `file` may be read line by line alone and give
 * what its load gives; undefined when its load reads more than that file
 * (see HarnessDefinition.readsAlone).
 */
export async function sessionReadsAlone(
  harness: AnyHarness,
  file: string,
  context: LoadContext,
): Promise<CodecOptions | undefined> {
  if (harness.readsAlone !== undefined) return harness.readsAlone(file, context);
  return harness.loadFile === undefined ? {} : undefined;
}

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replaceAll("-", "_");
}

/** Levenshtein distance, for "did you mean". */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] as number;
}

/** The closest of `candidates` to `wanted`, when it is close enough to be a typo. */
export function closest(wanted: string, candidates: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of candidates) {
    const distance = editDistance(normalizeName(wanted), normalizeName(name));
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  return best.distance <= Math.max(1, Math.floor(best.name.length / 3)) ? best.name : undefined;
}

/** An ordered set of harnesses: lookup by id or alias, detection, stores. */
export class HarnessRegistry {
  readonly harnesses: readonly AnyHarness[];

  /** Harnesses in detection order: the most specific sniff first. */
  constructor(harnesses: readonly AnyHarness[]) {
    const seen = new Map<string, string>();
    for (const harness of harnesses) {
      for (const name of [harness.id, ...harness.aliases]) {
        const key = normalizeName(name);
        const owner = seen.get(key);
        if (owner === harness.id) continue;
        if (owner !== undefined)
          throw new TxcriptError(
            "USAGE",
            `the harness name ${JSON.stringify(name)} is taken twice (${owner} and ${harness.id})`,
          );
        seen.set(key, harness.id);
      }
      if ((harness.resumeCommand === undefined) === (harness.continueRefusal === undefined))
        throw new TxcriptError(
          "USAGE",
          `harness ${harness.id} must define exactly one of resumeCommand and continueRefusal`,
        );
    }
    this.harnesses = harnesses;
  }

  /** A registry with more harnesses after these (tests, plug-ins). */
  with(...more: AnyHarness[]): HarnessRegistry {
    return new HarnessRegistry([...this.harnesses, ...more]);
  }

  /** Ids, for help texts and error hints. */
  names(): string {
    return this.harnesses.map((harness) => harness.id).join(", ");
  }

  /** The harness named by an id or alias (case-insensitive, `-` and `_` alike). */
  find(name: string): AnyHarness {
    const wanted = normalizeName(name);
    for (const harness of this.harnesses) {
      if (normalizeName(harness.id) === wanted) return harness;
      if (harness.aliases.some((alias) => normalizeName(alias) === wanted)) return harness;
    }
    const suggestion = closest(
      name,
      this.harnesses.flatMap((harness) => [harness.id, ...harness.aliases]),
    );
    throw new TxcriptError("USAGE", `unknown harness ${JSON.stringify(name)}`, {
      hint: `${suggestion === undefined ? "" : `did you mean ${suggestion}? `}expected one of ${this.names()}`,
    });
  }

  /** The first harness whose codec recognizes the text. */
  detect(text: string, file?: string): AnyHarness {
    for (const harness of this.harnesses) if (harness.codec.detect(text)) return harness;
    throw new TxcriptError("UNKNOWN_FORMAT", "cannot tell which harness wrote this input", {
      ...(file === undefined ? {} : { location: { file } }),
      hint: `pass --from with one of ${this.names()}`,
    });
  }

  /** The harnesses that keep sessions on disk, with their stores. */
  stores(environment: Environment): { harness: AnyHarness; store: Store<unknown> }[] {
    return this.harnesses.flatMap((harness) =>
      harness.store ? [{ harness, store: harness.store(environment) as Store<unknown> }] : [],
    );
  }
}
