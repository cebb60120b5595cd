// The contracts every harness package implements: a Codec (native text ⇄
// native body ⇄ Common) and, for harnesses that keep sessions on disk, a
// Store. Conversions report what they could not carry through `onWarning`;
// they never drop it silently.
import type { Transcript } from "./model.js";

/** Known harness ids; a harness package may add its own. */
export type HarnessId = "amp" | "stream_json" | "claude_code" | "common" | (string & {});

/**
 * What a loss is: content the other side cannot hold (`unsupported`),
 * content that changed shape (`degraded`), or bookkeeping fields with no
 * meaning for the conversation (`bookkeeping`; `other` is read as that).
 */
export type WarningKind = "unsupported" | "degraded" | "bookkeeping" | "other";

/** One distinct occurrence sentence of a loss, with how often it occurred. */
export interface WarningCase {
  message: string;
  count: number;
  path?: string;
}

/** One kind of loss that occurred in a conversion, with how often. */
export interface Warning {
  kind: WarningKind;
  /** Stable id of the loss, one of the codec's `losses` codes. */
  code: string;
  /** Human sentence for one occurrence, e.g. "a cancelled tool result became an error result". */
  message: string;
  count: number;
  /** JSON path or location of the first occurrence. */
  path?: string;
  /** Which side of a conversion it occurred on (callers set it; codecs need not). */
  leg?: "read" | "write";
  /** The harness of that leg. */
  harness?: string;
  /** When occurrences differ: each distinct sentence and its count (set by WarningCollector). */
  cases?: WarningCase[];
}

/** A documented representational loss of a codec. */
export interface Loss {
  code: string;
  kind: WarningKind;
  /** What is lost, in one sentence. */
  description: string;
}

export interface ConversionOptions {
  /** Called once per loss occurrence; `convert` aggregates them. */
  onWarning?: (warning: Warning) => void;
  /**
   * Start time for formats whose lines carry no timestamps (stream-json):
   * the CLI passes the file's modification time, or now for stdin.
   */
  startTime?: Date;
}

/**
 * What a writer (`fromCommon`, a harness's `writeStream`) is told besides the
 * conversion options: where the body it writes is going.
 */
export interface WriteOptions extends ConversionOptions {
  /**
   * The body is for the harness's store (`Store.save`, as `txcript continue`
   * saves it), which writes what the body holds beside the session file
   * (Gemini CLI's and Qwen Code's subagent transcripts). Absent, the body is
   * serialized alone into one file (`convert -o`, stdout), and a writer
   * reports what only a store save writes as left out of that file.
   */
  forStore?: boolean;
}

export interface ParseOptions {
  /** The file the text came from, for error locations. */
  file?: string;
}

export interface Codec<
  Native,
  Read extends ConversionOptions = ConversionOptions,
  Write extends ConversionOptions = WriteOptions,
> {
  readonly id: HarnessId;
  readonly displayName: string;
  /** Cheap sniff for auto-detection; never throws. */
  detect(text: string): boolean;
  /** Native text → native body, lossless. Throws only TxcriptError. */
  parse(text: string, options?: ParseOptions): Native;
  /** Exact inverse of `parse` for text the harness itself wrote. */
  serialize(native: Native): string;
  toCommon(native: Native, options?: Read): Transcript;
  fromCommon(transcript: Transcript, options?: Write): Native;
  /** Every representational loss, documented. */
  readonly losses: readonly Loss[];
}

/** A session a store found, read cheaply (never a whole multi-MB parse). */
export interface Discovered {
  harness: HarnessId;
  id: string;
  path: string;
  title?: string;
  cwd?: string;
  /** ISO timestamp of the last change (file modification time when nothing better). */
  updatedAt: string;
  messageCount?: number;
}

/** A file a store skipped during discovery, and why. */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface SaveOptions {
  overwrite?: boolean;
}

export interface Store<Native> {
  readonly harness: HarnessId;
  readonly root: string;
  /**
   * Where under `root` everything `discover` reads lies, when that is not the whole root (a
   * home directory the harness also keeps logs, settings and caches in): patterns relative to
   * the root, `/`-separated, each segment a name, `*` (any one name) or, last, `**` (everything
   * below). A search index watches only these for changes (@txcript/search, freshness.ts), so a
   * log the harness appends to does not send every search back to `discover`.
   */
  readonly sessionPaths?: readonly string[];
  /** Skipped files are reported through `onSkip`, never thrown. */
  discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered>;
  load(id: string): Promise<Native>;
  save(native: Native, options?: SaveOptions): Promise<{ id: string; path: string }>;
  delete(id: string): Promise<void>;
}

/**
 * The aggregated warnings of one conversion: one per leg and code, its count
 * summed, and — when the occurrences' sentences differ — each distinct case
 * with its own count, so a report never passes one kind off as another.
 */
export class WarningCollector {
  readonly #byCode = new Map<string, { warning: Warning; cases: Map<string, WarningCase> }>();

  readonly add = (warning: Warning): void => {
    const key = `${warning.leg ?? ""}\u0000${warning.harness ?? ""}\u0000${warning.code}`;
    const known = this.#byCode.get(key);
    if (known !== undefined && warning.cases === undefined) {
      // The common case, once per occurrence: count it in place, no copies.
      known.warning.count += warning.count;
      const seen = known.cases.get(warning.message);
      if (seen) seen.count += warning.count;
      else known.cases.set(warning.message, caseOf(warning));
      return;
    }
    const incoming = warning.cases ?? [caseOf(warning)];
    if (known === undefined) {
      const { cases: _, ...rest } = warning;
      const cases = new Map<string, WarningCase>();
      for (const item of incoming) cases.set(item.message, { ...item });
      this.#byCode.set(key, { warning: { ...rest }, cases });
      return;
    }
    known.warning.count += warning.count;
    for (const item of incoming) {
      const seen = known.cases.get(item.message);
      if (seen) seen.count += item.count;
      else known.cases.set(item.message, { ...item });
    }
  };

  get warnings(): Warning[] {
    return [...this.#byCode.values()].map(({ warning, cases }) =>
      cases.size > 1 ? { ...warning, cases: [...cases.values()] } : { ...warning },
    );
  }
}

/**
 * A leg's warnings collected as a WarningCollector collects them, for a
 * leg that reports thousands of occurrences (one per line of a capture
 * without timestamps, one per message a writer cannot carry a field of):
 * the first occurrence of each kind (code and message) is tagged and added
 * at once, so kinds and cases keep the order of their first occurrence and
 * its path; a later one (without cases of its own) is only counted, and
 * `flush()` adds each kind's count as one warning, which the collector sums
 * into the case it already holds. The result is the collector's of every
 * occurrence tagged and added alone, when `tag` gives one kind the same
 * leg, harness, code and message. Two legs may share one collector (the
 * whole pipeline's read and write legs): flush the first before the second
 * adds, or both before reading `warnings`.
 */
export class RepeatFold {
  readonly #collector: WarningCollector;
  readonly #tag: (warning: Warning) => Warning;
  /** By code, then message: the first occurrence tagged, and the count of those after it. */
  readonly #kinds = new Map<string, Map<string, { tagged: Warning; more: number }>>();

  constructor(tag: (warning: Warning) => Warning, collector = new WarningCollector()) {
    this.#tag = tag;
    this.#collector = collector;
  }

  readonly add = (warning: Warning): void => {
    if (warning.cases !== undefined) {
      this.#collector.add(this.#tag(warning));
      return;
    }
    let byMessage = this.#kinds.get(warning.code);
    if (byMessage === undefined) {
      byMessage = new Map();
      this.#kinds.set(warning.code, byMessage);
    }
    const known = byMessage.get(warning.message);
    if (known !== undefined) {
      known.more += warning.count;
      return;
    }
    const tagged = this.#tag(warning);
    byMessage.set(warning.message, { tagged, more: 0 });
    this.#collector.add(tagged);
  };

  /** Add the counted repeats to the collector. */
  flush(): void {
    for (const byMessage of this.#kinds.values())
      for (const kind of byMessage.values())
        if (kind.more !== 0) {
          const { path: _, cases: __, ...rest } = kind.tagged;
          this.#collector.add({ ...rest, count: kind.more });
          kind.more = 0;
        }
  }

  /** The warnings so far (the counted repeats included), as WarningCollector#warnings. */
  warnings(): Warning[] {
    this.flush();
    return this.#collector.warnings;
  }
}

function caseOf(warning: Warning): WarningCase {
  return warning.path === undefined
    ? { message: warning.message, count: warning.count }
    : { message: warning.message, count: warning.count, path: warning.path };
}

/** Report `count` occurrences of a codec's loss through the options' callback. */
export function warn(
  options: ConversionOptions | undefined,
  loss: Loss,
  message: string,
  path?: string,
  count = 1,
): void {
  const report = options?.onWarning;
  if (report === undefined) return;
  const warning: Warning = { kind: loss.kind, code: loss.code, message, count };
  if (path !== undefined) warning.path = path;
  report(warning);
}

/**
 * Losses counted while a session is read and reported once per kind (code
 * and message) at the end, with the count and the path of the first
 * occurrence: a long session says "286 × a turn_context's sandbox_policy was
 * not carried" once, not 286 times, and two kinds under one code stay two
 * lines. A path may be given as a function, called only for the first
 * occurrence of its kind, so a reader need not build a path per block.
 */
export class LossTally {
  // Looked up by code, then by message (no key string built per occurrence);
  // reported in the order each kind first occurred.
  readonly #byCode = new Map<string, Map<string, TalliedLoss>>();
  readonly #order: TalliedLoss[] = [];

  add(loss: Loss, message: string, count = 1, path?: string | (() => string)): void {
    if (count <= 0) return;
    let byMessage = this.#byCode.get(loss.code);
    if (byMessage === undefined) {
      byMessage = new Map();
      this.#byCode.set(loss.code, byMessage);
    }
    const known = byMessage.get(message);
    if (known !== undefined) {
      known.count += count;
      return;
    }
    const entry: TalliedLoss = {
      loss,
      message,
      path: typeof path === "function" ? path() : path,
      count,
    };
    byMessage.set(message, entry);
    this.#order.push(entry);
  }

  /**
   * Add every kind counted so far to `tally`, in order, as if counted there
   * (what a streaming reader counted in a pass it does not repeat).
   */
  addTo(tally: LossTally): void {
    for (const { loss, message, count, path } of this.#order) tally.add(loss, message, count, path);
  }

  /** Report every kind counted so far through the options' callback, and start again. */
  flush(options: ConversionOptions | undefined): void {
    for (const { loss, message, path, count } of this.#order)
      warn(options, loss, message, path, count);
    this.#byCode.clear();
    this.#order.length = 0;
  }
}

interface TalliedLoss {
  loss: Loss;
  message: string;
  path: string | undefined;
  count: number;
}
