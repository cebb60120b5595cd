// Reading a discovered session by the path discovery found, for the stores
// whose `load(id)` would first look the id up again (a walk over every
// project directory, or over every recording's head: per session, a cost
// that grows with the store, so a first index over thousands of sessions
// spent most of its time there). Each reader returns exactly what the
// store's `load` returns for that file — the codec's parse of its text,
// plus what the store adds (Gemini CLI: the project root discovery already
// found) — and gives up (undefined: the store's own `load` then) whenever
// the store would read more than that one file: subagent files beside a
// Claude Code session or in a Gemini CLI chat's directory. The test
// (direct-load.test.ts) proves each equal to the store's load.
import { promises as fs } from "node:fs";
import * as path from "node:path";
import { type Discovered, readTextFile } from "@txcript/core";

/** A harness's parse of one file's text (its codec's `parse`). */
export type ParseFile = (text: string, file: string) => unknown;

async function exists(file: string): Promise<boolean> {
  return (await fs.lstat(file).catch(() => undefined)) !== undefined;
}

type DirectReader = (session: Discovered, parse: ParseFile) => Promise<unknown | undefined>;

const readers: Record<string, DirectReader> = {
  // pi's load is locate(id) (a walk of every session directory) and the parse of that file.
  pi: async (session, parse) =>
    parse(await readTextFile(session.path, { harness: "pi" }), session.path),
  // Claude Code's load adds the files of `<session>/subagents/` when that directory exists.
  claude_code: async (session, parse) => {
    const subagents = path.join(
      path.dirname(session.path),
      path.basename(session.path, ".jsonl"),
      "subagents",
    );
    if (await exists(subagents)) return undefined;
    return parse(await readTextFile(session.path, { harness: "claude_code" }), session.path);
  },
  // Gemini CLI's load adds the project root (what discovery reported as the cwd) and the
  // subagent recordings in `chats/<id>/`.
  gemini_cli: async (session, parse) => {
    if (await exists(path.join(path.dirname(session.path), session.id))) return undefined;
    const parsed = parse(
      await readTextFile(session.path, { harness: "gemini_cli" }),
      session.path,
    ) as object;
    return session.cwd === undefined ? parsed : { ...parsed, projectRoot: session.cwd };
  },
};

/** The native session read straight from its file, or undefined when the store must load it. */
export async function loadDirect(
  harness: string,
  session: Discovered,
  parse: ParseFile | undefined,
): Promise<unknown | undefined> {
  const reader = readers[harness];
  if (reader === undefined || parse === undefined) return undefined;
  return reader(session, parse);
}

/** The harnesses read by path. */
export const directHarnesses: readonly string[] = Object.keys(readers);
