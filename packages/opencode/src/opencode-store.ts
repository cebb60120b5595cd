// The OpenCode session store: the live SQLite database (OpenCode ≥ 1.2),
// read strictly read-only, and the pre-1.2 JSON storage tree beside it.
// `discover` lists every project's sessions (OpenCode's own `session list`
// shows the current project's only). txcript never writes the database:
// `save` stages an export file, and the harness's afterSave step hands it
// to `opencode import`.
import { existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Environment,
  readTextFile,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
  writeFileAtomic,
} from "@txcript/core";
import { loadStoredTree } from "./opencode-load.js";
import { opencodeStagingDir, opencodeStorageDir } from "./opencode-paths.js";
import {
  harness,
  type OpencodeSession,
  parseOpencodeExport,
  serializeOpencodeExport,
} from "./opencode-schema.js";
import {
  childSessionIds,
  listSessions,
  loadSessionDocument,
  openReadOnly,
  type ReadOnlyDatabase,
  sessionFootprint,
} from "./opencode-sqlite.js";
import { listStoredSessions, storedMessageCount } from "./opencode-storage.js";
import { opencodeDefaultRoot } from "./opencode-store-root.js";

export interface OpencodeStoreOptions {
  env?: Environment;
  /** The database file (default: OPENCODE_DB, else `$XDG_DATA_HOME/opencode/opencode.db`). */
  root?: string;
  /** The pre-1.2 storage tree (default `<data dir>/storage`). */
  storage?: string;
  /** Where `save` stages export files for `opencode import` (default `opencodeStagingDir(env)`). */
  staging?: string;
}

const safeSessionId = /^ses[0-9A-Za-z_-]{1,100}$/;
/** Subagent sessions nest; deeper than this is not followed. */
const maxDepth = 8;

export class OpencodeStore implements Store<OpencodeSession> {
  readonly harness = harness;
  /** The database file. */
  readonly root: string;
  readonly storage: string;
  readonly staging: string;

  static defaultRoot(env: Environment = process.env): string {
    return opencodeDefaultRoot(env);
  }

  constructor(options: OpencodeStoreOptions = {}) {
    const env = options.env ?? process.env;
    this.root = options.root ?? OpencodeStore.defaultRoot(env);
    this.storage = options.storage ?? opencodeStorageDir(env);
    this.staging = options.staging ?? opencodeStagingDir(env);
  }

  async #withDatabase<T>(use: (database: ReadOnlyDatabase) => T): Promise<T | undefined> {
    if (!existsSync(this.root)) return undefined;
    const database = await openReadOnly(this.root);
    try {
      return use(database);
    } finally {
      database.close();
    }
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    const seen = new Set<string>();
    let rows: ReturnType<typeof listSessions> = [];
    try {
      rows = (await this.#withDatabase(listSessions)) ?? [];
    } catch (error) {
      onSkip?.({ path: this.root, reason: error instanceof Error ? error.message : String(error) });
    }
    for (const row of rows) {
      seen.add(row.id);
      yield {
        harness,
        id: row.id,
        path: this.root,
        ...(row.title === "" ? {} : { title: row.title }),
        ...(row.directory === "" ? {} : { cwd: row.directory }),
        updatedAt: new Date(row.timeUpdated).toISOString(),
        messageCount: row.messageCount,
      };
    }
    const stored = await listStoredSessions(this.storage, (file, reason) =>
      onSkip?.({ path: file, reason }),
    );
    for (const session of stored) {
      if (seen.has(session.id)) continue;
      seen.add(session.id);
      const time = session.info.time;
      const updated =
        typeof time === "object" &&
        time !== null &&
        !Array.isArray(time) &&
        typeof time.updated === "number"
          ? time.updated
          : 0;
      const title = session.info.title;
      const directory = session.info.directory;
      yield {
        harness,
        id: session.id,
        path: session.file,
        ...(typeof title === "string" && title !== "" ? { title } : {}),
        ...(typeof directory === "string" && directory !== "" ? { cwd: directory } : {}),
        updatedAt: new Date(updated).toISOString(),
        messageCount: await storedMessageCount(this.storage, session.id),
      };
    }
  }

  #fromDatabase(
    database: ReadOnlyDatabase,
    id: string,
    depth: number,
  ): OpencodeSession | undefined {
    const document = loadSessionDocument(database, id);
    if (document === undefined) return undefined;
    const session: OpencodeSession = { document, finalNewline: true };
    if (depth < maxDepth) {
      const children = childSessionIds(database, id).flatMap((child) => {
        const loaded = this.#fromDatabase(database, child, depth + 1);
        return loaded === undefined ? [] : [loaded];
      });
      if (children.length > 0) session.children = children;
    }
    return session;
  }

  /** A session by id, with its subagent sessions: from the database, else the storage tree, else the staging directory. */
  async load(id: string): Promise<OpencodeSession> {
    const fromDatabase = await this.#withDatabase((database) =>
      this.#fromDatabase(database, id, 0),
    );
    if (fromDatabase !== undefined) return fromDatabase;
    const stored = await loadStoredTree(this.storage, id);
    if (stored !== undefined) return stored;
    // A session saved (staged) but not imported yet.
    const staged = safeSessionId.test(id) ? path.join(this.staging, `${id}.json`) : undefined;
    if (staged !== undefined && existsSync(staged))
      return parseOpencodeExport(await readTextFile(staged, { harness }), { file: staged });
    throw new TxcriptError("NOT_FOUND", `no OpenCode session ${id}`, {
      harness,
      location: { file: this.root },
      hint: "`txcript list --harness opencode` shows the sessions of every project",
    });
  }

  /**
   * Stage the export file `opencode import` takes; the database itself is
   * never written. `opencode import` replaces a session the database already
   * holds (it upserts), so a session id found there is refused (CONFLICT,
   * located at the database) unless `overwrite`. The staging file is only a
   * hand-over: a later save replaces it, and the harness's afterSave removes
   * it once import has run.
   */
  async save(
    native: OpencodeSession,
    options: SaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const id = String(native.document.info.id);
    if (!safeSessionId.test(id))
      throw new TxcriptError(
        "UNSAFE_PATH",
        `the session id ${JSON.stringify(id)} cannot name a file`,
        { harness },
      );
    if (options.overwrite !== true) {
      const found = await this.#withDatabase((database) => sessionFootprint(database, id));
      if (found !== undefined && (found.session || found.messages > 0 || found.parts > 0))
        throw new TxcriptError(
          "CONFLICT",
          `OpenCode's database already holds session ${id} (${found.messages} messages); \`opencode import\` would replace it`,
          {
            harness,
            location: { file: this.root },
            hint: `open it with \`opencode --session ${id}\`, or pass --force to replace it`,
          },
        );
    }
    const target = this.#stagedFile(id);
    await fs.mkdir(this.staging, { recursive: true, mode: 0o700 });
    await writeFileAtomic(target, serializeOpencodeExport(native), {
      harness,
      root: this.staging,
      overwrite: true,
    });
    return { id, path: target };
  }

  #stagedFile(id: string): string {
    return path.join(this.staging, `${id}.json`);
  }

  /** Removes a session only staged (not imported yet); the database is never written. */
  async delete(id: string): Promise<void> {
    const staged = safeSessionId.test(id) ? this.#stagedFile(id) : undefined;
    if (staged !== undefined && existsSync(staged)) {
      await fs.rm(staged, { force: true });
      return;
    }
    throw new TxcriptError(
      "REFUSED",
      `txcript does not write OpenCode's database, so it cannot delete ${id}`,
      {
        harness,
        hint: `delete it in OpenCode: opencode session delete ${id}`,
      },
    );
  }
}
