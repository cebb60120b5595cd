// An OpenCode 1.2+ database for the store-list suite. txcript's OpenCode
// store saves an export for `opencode import` (the real program writes the
// database), so its discover does not list what it saved, and the suite would
// leave OpenCode out. Instead each session — the OpenCode export our codec
// writes — goes into `$XDG_DATA_HOME/opencode/opencode.db` as OpenCode keeps
// it: a `session` row, a `message` row per message (`data` the message info
// without `id` and `sessionID`) and a `part` row per part (`data` without
// `id`, `sessionID` and `messageID`), per ../shared/harnesses/opencode.md.
// The indexes are those of a database opencode-ai 1.18.33 made on `opencode
// import` (read with sqlite_master, 2026-12-08; bench/NOTES.md): what keeps
// a session's message count an index lookup, as it is for users.
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { repoRoot } from "./packages.mjs";

const schema = `
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, sandboxes text NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL, workspace_id text, parent_id text,
  slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL, version text NOT NULL,
  share_url text, time_created integer NOT NULL, time_updated integer NOT NULL, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL, time_created integer NOT NULL,
  time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL, session_id text NOT NULL,
  time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE INDEX message_session_time_created_id_idx ON message (session_id, time_created, id);
CREATE INDEX part_message_id_id_idx ON part (message_id, id);
CREATE INDEX part_session_idx ON part (session_id);
CREATE INDEX session_project_idx ON session (project_id);
CREATE INDEX session_workspace_idx ON session (workspace_id);
CREATE INDEX session_parent_idx ON session (parent_id);
`;

/** `value` without the named keys. */
function without(value, keys) {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !keys.includes(key)));
}

/**
 * Opens (creating) the database under `dataHome`; `add(document)` puts one
 * OpenCode export document in and returns the bytes of JSON it stored, and
 * `close()` checkpoints and closes it.
 */
export async function opencodeDatabase(dataHome) {
  const Database = createRequire(path.join(repoRoot, "packages", "opencode", "package.json"))(
    "better-sqlite3",
  );
  const directory = path.join(dataHome, "opencode");
  await fs.mkdir(directory, { recursive: true });
  const database = new Database(path.join(directory, "opencode.db"));
  database.pragma("journal_mode = WAL");
  database.exec(schema);
  database.prepare("INSERT INTO project VALUES ('global', '/', 0, 0, '[]')").run();
  const session = database.prepare(
    "INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated) VALUES (?, 'global', ?, ?, ?, ?, ?, ?, ?)",
  );
  const message = database.prepare("INSERT INTO message VALUES (?, ?, ?, ?, ?)");
  const part = database.prepare("INSERT INTO part VALUES (?, ?, ?, ?, ?, ?)");
  const add = database.transaction((document) => {
    const { info } = document;
    session.run(
      info.id,
      info.parentID ?? null,
      info.slug ?? "bench",
      info.directory ?? "/",
      info.title ?? "",
      info.version ?? "1.18.33",
      info.time.created,
      info.time.updated ?? info.time.created,
    );
    let bytes = 0;
    for (const entry of document.messages) {
      const created = entry.info.time.created;
      const data = JSON.stringify(without(entry.info, ["id", "sessionID"]));
      bytes += data.length;
      message.run(entry.info.id, info.id, created, entry.info.time.completed ?? created, data);
      for (const piece of entry.parts) {
        const text = JSON.stringify(without(piece, ["id", "sessionID", "messageID"]));
        bytes += text.length;
        part.run(piece.id, entry.info.id, info.id, created, created, text);
      }
    }
    return bytes;
  });
  return {
    add,
    close() {
      database.pragma("wal_checkpoint(TRUNCATE)");
      database.close();
    },
  };
}
