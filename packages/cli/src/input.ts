// Turning a `<ref>` into a transcript: `-` is stdin, an existing path is a
// file, anything else is a session id (or a unique prefix of one) looked up
// across every store. The format comes from --from, the store, or detection.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Transcript,
  TxcriptError,
  toTranscript,
  type Warning,
} from "@txcript/core";
import { detectHarness, findHarness, type Harness, stores } from "./harnesses.js";
import type { Io } from "./io.js";
import { maxInputBytes, readAllLimited, readLimitedFile } from "./limits.js";
import { bigInputStatus } from "./progress.js";

export interface Input {
  text: string;
  harness: Harness;
  /** The file for error messages; `<stdin>` for stdin. */
  file: string;
  /** Start time for formats without timestamps: the file's mtime, or now for stdin. */
  startTime: Date;
  /** The store entry, when the ref named a stored session. */
  discovered?: Discovered;
}

/** Find one stored session by exact id, else by a unique id prefix. */
export async function findSession(ref: string, io: Io, only?: Harness): Promise<Discovered> {
  const exact: Discovered[] = [];
  const prefixed: Discovered[] = [];
  for (const { harness, store } of stores(io.env)) {
    if (only && harness !== only) continue;
    for await (const session of store.discover()) {
      if (session.id === ref) exact.push(session);
      else if (session.id.startsWith(ref)) prefixed.push(session);
    }
  }
  const candidates = exact.length > 0 ? exact : prefixed;
  if (candidates.length === 1) return candidates[0] as Discovered;
  if (candidates.length === 0) {
    throw new TxcriptError(
      "NOT_FOUND",
      `no file or stored session matches ${JSON.stringify(ref)}`,
      {
        hint: "`txcript list` shows the stored sessions",
      },
    );
  }
  const shown = candidates
    .slice(0, 8)
    .map((session) => `${session.harness} ${session.id}`)
    .join(", ");
  const more = candidates.length > 8 ? `, and ${candidates.length - 8} more` : "";
  throw new TxcriptError(
    "AMBIGUOUS",
    `${JSON.stringify(ref)} matches ${candidates.length} sessions: ${shown}${more}`,
    { hint: "give more of the id" },
  );
}

/** Where a `<ref>` points, before anything is read: stdin, or a file (a stored session's included). */
export type Located =
  | { kind: "stdin"; forced: Harness | undefined }
  | {
      kind: "file";
      forced: Harness | undefined;
      /** The absolute path. */
      path: string;
      /** The name errors give it: what the user typed, or the stored session's path. */
      shown: string;
      size: number;
      mtime: Date;
      discovered?: Discovered;
    };

/** Resolve `<ref>` without reading it: `-`, a file, or a stored session (see findSession). */
export async function locateInput(ref: string, io: Io, from?: string): Promise<Located> {
  const forced = from === undefined ? undefined : findHarness(from);
  if (ref === "-") return { kind: "stdin", forced };
  const file = path.resolve(io.cwd, ref);
  const stat = await fs.stat(file).catch(() => undefined);
  if (stat?.isDirectory()) {
    throw new TxcriptError("USAGE", "expected a session file, got a directory", {
      location: { file: ref },
      hint: "only `txcript convert <dir> --to H --out DIR` takes a directory",
    });
  }
  if (stat)
    return { kind: "file", forced, path: file, shown: ref, size: stat.size, mtime: stat.mtime };
  const discovered = await findSession(ref, io, forced);
  const found = await fs.stat(discovered.path).catch(() => undefined);
  return {
    kind: "file",
    forced: forced ?? findHarness(discovered.harness),
    path: discovered.path,
    shown: discovered.path,
    size: found?.size ?? 0,
    mtime: found?.mtime ?? new Date(),
    discovered,
  };
}

/** Read a located input whole (refused past the input limit). */
export async function readLocated(located: Located, io: Io): Promise<Input> {
  const limit = maxInputBytes(io.env);
  if (located.kind === "stdin") {
    const text = await readAllLimited(io.stdin, limit);
    const file = "<stdin>";
    return {
      text,
      file,
      harness: located.forced ?? detectHarness(text, file),
      startTime: new Date(),
    };
  }
  const { shown } = located;
  bigInputStatus(io, shown, located.size);
  const { text, mtime } = await readLimitedFile(located.path, shown, limit);
  return {
    text,
    file: shown,
    harness: located.forced ?? detectHarness(text, shown),
    startTime: located.discovered === undefined ? located.mtime : mtime,
    ...(located.discovered === undefined ? {} : { discovered: located.discovered }),
  };
}

export async function readInput(ref: string, io: Io, from?: string): Promise<Input> {
  return readLocated(await locateInput(ref, io, from), io);
}

/** Parse an input through its codec into Common, with the losses of that leg. */
export function readTranscript(input: Input): { transcript: Transcript; warnings: Warning[] } {
  const read = input.harness.readOptions?.({ startTime: input.startTime });
  const result = toTranscript(input.text, input.harness.codec, {
    file: input.file,
    ...(read === undefined ? {} : { read }),
  });
  const harness = input.harness.id;
  return {
    transcript: result.transcript,
    warnings: result.warnings.map((warning) => ({ ...warning, leg: "read" as const, harness })),
  };
}
