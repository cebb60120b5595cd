// The Crush store. Crush keeps one database per project
// (`<project>/.crush/crush.db`) and lists the projects it ran in, with their
// data directories, in `projects.json` in its global data directory. The
// default root is that global directory: `discover` lists the sessions of
// every registered project's database. A given root that is a database
// file, or a directory without projects.json (a data directory, as
// `crush --data-dir` takes), is that one database. Databases are
// opened read-only. `save` writes into the root's database when the root is
// one, else into `<meta.cwd>/.crush/crush.db` of an existing project
// directory (where `crush --session` in that directory finds it).
import { existsSync, promises as fs, lstatSync } from "node:fs";
import * as path from "node:path";
import {
  type Discovered,
  type Environment,
  isJsonObject,
  ownValue,
  parseJson,
  type SaveOptions,
  type SkippedFile,
  type Store,
  TxcriptError,
} from "@txcript/core";
import {
  crushDatabaseIn,
  crushDatabaseName,
  crushGlobalDataDir,
  crushProjectOf,
  crushProjectsFile,
} from "./crush-paths.js";
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
  /**
   * Crush's global data directory (projects.json: every project's database),
   * a project's data directory, or a database file. Default: the global data
   * directory of `env` (crushGlobalDataDir).
   */
  root?: string;
}

/** projects.json larger than this is not read. */
const maxRegistryBytes = 4 * 1024 * 1024;

interface Located {
  database: string;
  project?: string;
}

function isRegularFile(file: string): boolean {
  return lstatSync(file, { throwIfNoEntry: false })?.isFile() === true;
}

export class CrushStore implements Store<CrushSession> {
  readonly harness = harness;
  readonly root: string;
  readonly #explicit: boolean;
  /** Databases this store saved into, so load finds what save wrote before Crush registers the project. */
  readonly #written = new Set<string>();

  static defaultRoot(env: Environment = process.env): string {
    return crushGlobalDataDir(env);
  }

  constructor(options: CrushStoreOptions = {}) {
    this.#explicit = options.root !== undefined;
    this.root =
      options.root === undefined
        ? CrushStore.defaultRoot(options.env ?? process.env)
        : path.resolve(options.root);
  }

  /**
   * The one database the root names, when it names one: a `.db` file, or a
   * root given as a data directory (any directory without projects.json,
   * as `crush --data-dir` takes one). The default root, and a given one
   * holding projects.json, are Crush's global data directory.
   */
  #single(): string | undefined {
    if (path.extname(this.root) === ".db") return this.root;
    if (this.#explicit && !existsSync(path.join(this.root, crushProjectsFile)))
      return path.join(this.root, crushDatabaseName);
    return undefined;
  }

  /** Every database the store reads: the root's one, or those projects.json lists. */
  async #databases(onSkip?: (skipped: SkippedFile) => void): Promise<Located[]> {
    const single = this.#single();
    const found: Located[] = [];
    if (single !== undefined) {
      const project = crushProjectOf(single);
      found.push(project === undefined ? { database: single } : { database: single, project });
    } else {
      const registry = path.join(this.root, crushProjectsFile);
      const stat = lstatSync(registry, { throwIfNoEntry: false });
      if (stat !== undefined) {
        try {
          if (!stat.isFile()) throw new Error("not a regular file");
          if (stat.size > maxRegistryBytes)
            throw new Error(`larger than ${maxRegistryBytes} bytes`);
          const value = parseJson(await fs.readFile(registry, "utf8"), { harness, file: registry });
          const projects = isJsonObject(value) ? ownValue(value, "projects") : undefined;
          for (const entry of Array.isArray(projects) ? projects : []) {
            if (!isJsonObject(entry)) continue;
            const dataDir = ownValue(entry, "data_dir");
            const project = ownValue(entry, "path");
            if (typeof dataDir !== "string" || !path.isAbsolute(dataDir)) continue;
            const database = path.join(dataDir, crushDatabaseName);
            found.push(typeof project === "string" ? { database, project } : { database });
          }
        } catch (error) {
          onSkip?.({
            path: registry,
            reason: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
    for (const database of this.#written)
      if (!found.some((entry) => entry.database === database)) {
        const project = crushProjectOf(database);
        found.push(project === undefined ? { database } : { database, project });
      }
    return found.filter(
      (entry, index) =>
        found.findIndex((other) => other.database === entry.database) === index &&
        existsSync(entry.database),
    );
  }

  async #read<T>(file: string, use: (database: Database) => T): Promise<T> {
    const database = await openReadOnly(file);
    try {
      return use(database);
    } finally {
      database.close();
    }
  }

  async *discover(onSkip?: (skipped: SkippedFile) => void): AsyncIterable<Discovered> {
    for (const { database, project } of await this.#databases(onSkip)) {
      let rows: ReturnType<typeof listSessions>;
      try {
        rows = await this.#read(database, listSessions);
      } catch (error) {
        onSkip?.({
          path: database,
          reason: error instanceof Error ? error.message : String(error),
        });
        continue;
      }
      for (const row of rows)
        yield {
          harness,
          id: row.id,
          path: database,
          ...(row.title === "" ? {} : { title: row.title }),
          ...(project === undefined ? {} : { cwd: project }),
          updatedAt: new Date(
            row.updatedAt * (Math.abs(row.updatedAt) >= 1e11 ? 1 : 1000),
          ).toISOString(),
          messageCount: row.messageCount,
        };
    }
  }

  async load(id: string): Promise<CrushSession> {
    for (const { database, project } of await this.#databases()) {
      const session = await this.#read(database, (opened) => readSession(opened, id));
      if (session === undefined) continue;
      return project === undefined ? session : { projectDirectory: project, ...session };
    }
    throw new TxcriptError("NOT_FOUND", `no Crush session ${id}`, {
      harness,
      location: { file: this.root },
      hint: "`txcript list --from crush` lists the sessions of every project Crush ran in",
    });
  }

  /** The database a session is saved into: the root's, else its project's (which must exist). */
  databaseFor(native: CrushSession): string {
    const single = this.#single();
    if (single !== undefined) return single;
    const project = native.projectDirectory;
    if (
      project !== undefined &&
      path.isAbsolute(project) &&
      lstatSync(project, { throwIfNoEntry: false })?.isDirectory() === true
    )
      return crushDatabaseIn(project);
    throw new TxcriptError(
      "UNSUPPORTED",
      project === undefined
        ? "a Crush session lives in its project's .crush/crush.db, and this one names no project directory"
        : `a Crush session lives in its project's .crush/crush.db, and ${project} is not a directory here`,
      {
        harness,
        hint: "continue it in an existing directory (--cwd), or name a database with --store <dir>/.crush/crush.db",
      },
    );
  }

  async save(
    native: CrushSession,
    options: SaveOptions = {},
  ): Promise<{ id: string; path: string }> {
    const file = this.databaseFor(native);
    const data = path.dirname(file);
    if (existsSync(data) && !lstatSync(data).isDirectory())
      throw new TxcriptError("UNSAFE_PATH", `${data} is not a directory`, {
        harness,
        location: { file: data },
      });
    if (existsSync(file) && !isRegularFile(file))
      throw new TxcriptError("UNSAFE_PATH", `${file} is not a regular file`, {
        harness,
        location: { file },
      });
    await writeSession(
      file,
      native,
      options.overwrite === undefined ? {} : { overwrite: options.overwrite },
    );
    this.#written.add(file);
    return { id: String(native.session.id), path: file };
  }

  /** Removes a session (with its children) from the database it is in: what a failed `continue` check takes back. */
  async delete(id: string): Promise<void> {
    for (const { database } of await this.#databases())
      if (await deleteSession(database, id)) return;
    throw new TxcriptError("NOT_FOUND", `no Crush session ${id}`, {
      harness,
      location: { file: this.root },
    });
  }
}
