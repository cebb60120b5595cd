// Turning a `<ref>` into a transcript: `-` is stdin, an existing path is a
// file, anything else is a session id (or a unique prefix of one) looked up
// across every store. The format comes from --from, the store, or detection.
// A file and a stored session are read one way, the harness's own load
// (HarnessDefinition.loadFile through core's loadSessionFile): what belongs
// to the session beside its file (Claude Code's subagent files, Codex's
// spawned rollouts, Gemini CLI's subagent recordings, OpenCode's child
// sessions) comes with it, and a side file it names and cannot find is a
// named loss. stdin is parsed alone.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Environment,
  loadSessionFile,
  readSession,
  type SessionSource,
  type Transcript,
  TxcriptError,
  type Warning,
} from "@txcript/core";
import {
  findHarness,
  type Harness,
  harnessNamed,
  harnessOf,
  loadRegistry,
  stores,
} from "./harnesses.js";
import type { Io } from "./io.js";
import { maxInputBytes, readAllLimited, readLimitedFile } from "./limits.js";
import { bigInputStatus } from "./progress.js";
import { locate, withFile } from "./report.js";

export interface Input {
  /**
   * The session file's text when it was read up front (a path, to detect its
   * harness; stdin); "" for a stored session, whose load reads its own files.
   */
  text: string;
  harness: Harness;
  /** The file for error messages; `<stdin>` for stdin. */
  file: string;
  /** Start time for formats without timestamps: the file's mtime, or now for stdin. */
  startTime: Date;
  /** The store entry, when the ref named a stored session. */
  discovered?: Discovered;
  /** Where the session is loaded from (absent for stdin: parsed alone). */
  path?: string;
  /** The environment the harness's load finds its store in. */
  environment?: Environment;
  /** The input limit every file the load reads is held to. */
  limit?: number;
}

/** Find one stored session by exact id, else by a unique id prefix. */
export async function findSession(ref: string, io: Io, only?: Harness): Promise<Discovered> {
  // Every store is searched: every harness is loaded.
  await loadRegistry();
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
  const forced = from === undefined ? undefined : await harnessNamed(from);
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

/** Read a located input (a file or stdin up to the input limit; a stored session when loaded). */
export async function readLocated(located: Located, io: Io): Promise<Input> {
  const limit = maxInputBytes(io.env);
  if (located.kind === "stdin") {
    const text = await readAllLimited(io.stdin, limit);
    const file = "<stdin>";
    return {
      text,
      file,
      harness: located.forced ?? (await harnessOf(text, file)),
      startTime: new Date(),
    };
  }
  const { shown } = located;
  bigInputStatus(io, shown, located.size);
  const where = { path: located.path, environment: io.env, limit };
  if (located.discovered !== undefined && located.forced !== undefined)
    // A stored session: its harness's load reads its files (not always one: OpenCode's database).
    return {
      text: "",
      file: shown,
      harness: located.forced,
      startTime: located.mtime,
      discovered: located.discovered,
      ...where,
    };
  const { text } = await readLimitedFile(located.path, shown, limit);
  return {
    text,
    file: shown,
    harness: located.forced ?? (await harnessOf(text, shown)),
    startTime: located.mtime,
    ...where,
  };
}

/**
 * The input's native body through its harness's load (stdin: the codec's
 * parse), with the load's named losses as read-leg warnings. With `take`,
 * the input's text is handed to the load and cleared, so nothing here keeps
 * a second copy of a big session alive.
 */
export async function loadInput(
  input: Input,
  onWarning: (warning: Warning) => void,
  take = false,
): Promise<unknown> {
  const { text } = input;
  if (take) input.text = "";
  const file = input.path;
  if (file === undefined)
    return withFile(input.file, () => input.harness.codec.parse(text, { file: input.file }));
  const limit = input.limit ?? Number.POSITIVE_INFINITY;
  const shown = (name: string) => (name === file ? input.file : name);
  try {
    return await loadSessionFile(input.harness, file, {
      environment: input.environment ?? {},
      ...(input.discovered === undefined ? {} : { discovered: input.discovered }),
      ...(input.discovered === undefined ? { text } : {}),
      readText: async (name) => (await readLimitedFile(name, shown(name), limit)).text,
      onWarning,
    });
  } catch (error) {
    // The load names the file by its absolute path; errors name it as the user gave it.
    throw TxcriptError.isInstance(error) && error.location.file === file
      ? error.withLocation({ ...error.location, file: input.file })
      : locate(error, input.file);
  }
}

export async function readInput(ref: string, io: Io, from?: string): Promise<Input> {
  return readLocated(await locateInput(ref, io, from), io);
}

/**
 * The input as core's pipeline reads it (SessionSource): its harness's load
 * (loadInput), taking the text when `take`.
 */
export function sessionSource(input: Input, take = false): SessionSource {
  return {
    harness: input.harness,
    file: input.file,
    startTime: input.startTime,
    sourceText: input.text,
    load: (onWarning) => loadInput(input, onWarning, take),
  };
}

/** Load an input through its harness into Common, with the losses of that leg (the load's first). */
export function readTranscript(
  input: Input,
): Promise<{ transcript: Transcript; warnings: Warning[] }> {
  return readSession(sessionSource(input));
}
