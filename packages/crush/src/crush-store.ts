// The Crush store: one project's `.crush/crush.db` (Crush keeps a database
// per project, not one per user). The default root is the working
// directory's; `--store` names another database or data directory. Reading
// opens the database read-only; `save` writes the session into the database
// of the session's project (`<cwd>/.crush/crush.db`) when the store was not
// given a root, else into the root, creating it with the migrations' schema
// when absent.

import { existsSync } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Environment,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
} from "@txcript/core";
import { crushDatabaseIn, crushDatabaseOf, crushProjectOf } from "./crush-paths.js";
import { type CrushSession, harness } from "./crush-schema.js";
import {
  type Database,
  deleteSession,
  listSessions,
  openReadOnly,
  readSession,
  writeSession,
} from "./crush-sqlite.js";

export interface CrushStoreOptions {
  env?: Environment;
  /** The database file or the data directory holding it (default `<cwd>/.crush/crush.db`). */
  root?: string;
  /** The working directory the default root is found from (default process.cwd()). */
  cwd?: string;
}

export class CrushStore implements Store<CrushSession> {
  readonly harness = harness;
  /** The database file. */
  readonly root: string;
  readonly #explicit: boolean;
  /** Databases this store saved into other than the root, so load finds what save wrote. */
  readonly #written = new Set<string>();

  static defaultRoot(cwd: string = process.cwd()): string {
    return crushDatabaseIn(cwd);
  }

  constructor(options: CrushStoreOptions = {}) {
    this.#explicit = options.root !== undefined;
    this.root =
      options.root === undefined
        ? CrushStore.defaultRoot(options.cwd)
        : crushDatabaseOf(path.resolve(options.root));
  }

  async #read<T>(file: string, use: (database: Database) => T): Promise<T | undefined> {
    if (!existsSync(file)) return undefined;
    const database = await openReadOnly(file);
    try {
      return use(database);
    } finally {
      database.close();
    }
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    let rows: ReturnType<typeof listSessions> = [];
    try {
      rows = (await this.#read(this.root, listSessions)) ?? [];
    } catch (error) {
      onSkip?.({ path: this.root, reason: error instanceof Error ? error.message : String(error) });
    }
    const cwd = crushProjectOf(this.root);
    for (const row of rows)
      yield {
        harness,
        id: row.id,
        path: this.root,
        ...(row.title === "" ? {} : { title: row.title }),
        ...(cwd === undefined ? {} : { cwd }),
        updatedAt: new Date(
          row.updatedAt * (Math.abs(row.updatedAt) >= 1e11 ? 1 : 1000),
        ).toISOString(),
        messageCount: row.messageCount,
      };
  }

  async load(id: string): Promise<CrushSession> {
    for (const file of [this.root, ...this.#written]) {
      const session = await this.#read(file, (database) => readSession(database, id));
      if (session === undefined) continue;
      const project = crushProjectOf(file);
      return project === undefined ? session : { projectDirectory: project, ...session };
    }
    throw new TxcriptError("NOT_FOUND", `no Crush session ${id}`, {
      harness,
      location: { file: this.root },
      hint: "`txcript list --harness crush` lists the sessions of this project's .crush/crush.db",
    });
  }

  /** The database a session is saved into: the root when given, else its project's. */
  databaseFor(native: CrushSession): string {
    if (
      this.#explicit ||
      native.projectDirectory === undefined ||
      !path.isAbsolute(native.projectDirectory)
    )
      return this.root;
    return crushDatabaseIn(native.projectDirectory);
  }

  async save(
    native: CrushSession,
    options: SaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const file = this.databaseFor(native);
    await writeSession(
      file,
      native,
      options.overwrite === undefined ? {} : { overwrite: options.overwrite },
    );
    if (file !== this.root) this.#written.add(file);
    return { id: String(native.session.id), path: file };
  }

  /** Removes a session (with its children) from the database it is in: what a failed `continue` check takes back. */
  async delete(id: string): Promise<void> {
    for (const file of [this.root, ...this.#written])
      if (existsSync(file) && (await deleteSession(file, id))) return;
    throw new TxcriptError("NOT_FOUND", `no Crush session ${id}`, {
      harness,
      location: { file: this.root },
    });
  }
}
