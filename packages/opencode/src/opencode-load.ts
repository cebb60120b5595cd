// The one load of an OpenCode session by a path: an export file is parsed; a
// session file of the pre-1.2 storage tree
// (`<storage>/session/<project>/<ses>.json`) is read with its messages,
// parts and child sessions (the sessions whose parentID names it), as the
// store reads it; a stored session that discovery found (in the database or
// the storage tree) loads through the store by its id, since a database
// holds many sessions and no file is one session's.
import * as path from "node:path";
import { type LoadContext, loadText, readHead, TxcriptError } from "@txcript/core";
import { harness, type OpencodeSession, parseOpencodeExport } from "./opencode-schema.js";
import { listStoredSessions, loadStoredSession } from "./opencode-storage.js";

/** Subagent sessions nest; deeper than this is not followed. */
const maxDepth = 8;

/** The storage tree a session file sits in (`<storage>/session/<project>/<ses>.json`), else undefined. */
export function opencodeStorageOf(file: string): string | undefined {
  const project = path.dirname(path.resolve(file));
  const sessions = path.dirname(project);
  if (
    path.basename(sessions) !== "session" ||
    !/^ses_[0-9A-Za-z]+\.json$/.test(path.basename(file))
  )
    return undefined;
  return path.dirname(sessions);
}

/** A session of the storage tree by id, with its child sessions. */
export async function loadStoredTree(
  storage: string,
  id: string,
): Promise<OpencodeSession | undefined> {
  const all = await listStoredSessions(storage);
  const build = async (wanted: string, depth: number): Promise<OpencodeSession | undefined> => {
    const stored = all.find((session) => session.id === wanted);
    if (stored === undefined) return undefined;
    const session: OpencodeSession = {
      document: await loadStoredSession(storage, stored),
      finalNewline: true,
    };
    if (depth < maxDepth) {
      const children: OpencodeSession[] = [];
      for (const child of all)
        if (child.info.parentID === wanted && child.id !== wanted) {
          const loaded = await build(child.id, depth + 1);
          if (loaded !== undefined) children.push(loaded);
        }
      if (children.length > 0) session.children = children;
    }
    return session;
  };
  return build(id, 0);
}

/** Loads through the store by id (`store` gives the store of the environment). */
export async function loadOpencodeFile(
  file: string,
  context: Partial<LoadContext>,
  storeLoad: (id: string) => Promise<OpencodeSession>,
): Promise<OpencodeSession> {
  if (context.discovered !== undefined) return storeLoad(context.discovered.id);
  const storage = opencodeStorageOf(file);
  if (storage !== undefined) {
    const loaded = await loadStoredTree(storage, path.basename(file, ".json"));
    if (loaded !== undefined) return loaded;
  }
  if (context.text === undefined && (await readHead(file, 16)).startsWith("SQLite format 3"))
    throw new TxcriptError("USAGE", "an OpenCode database holds many sessions, not one", {
      harness,
      location: { file },
      hint: "name the session by its id (`txcript list --harness opencode` shows them)",
    });
  const text = context.text ?? (await loadText(file, { environment: {}, ...context }, harness));
  return parseOpencodeExport(text, { file });
}
