// The DDL the writer creates equals, column by column, what Crush's
// published migrations produce (applied from the mirror of charmbracelet/crush
// when it is here) and what a database Crush itself made holds (a fixture).
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { crushSchemaStatements, gooseVersionRows } from "./crush-ddl.js";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const crushMadeEmpty = path.join(mkdtempSync(path.join(os.tmpdir(), "crush-ddl-")), "crush.db");
copyFileSync(path.join(repoRoot, "fixtures/crush/go-filewatcher-empty.crush.db"), crushMadeEmpty);
const mirror = "/work/.mirror/charmbracelet+crush/repo";
const mirrorCommit = "37f36e93824e5c4f892e4a817f7f628e2682fe14";

type Shape = Record<string, { columns: unknown[]; indexes: string[]; triggers: string[] }>;

function shape(database: Database.Database): Shape {
  const tables = database
    .prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all() as { name: string }[];
  const out: Shape = {};
  for (const { name } of tables) {
    out[name] = {
      columns: database
        .prepare(`SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info('${name}')`)
        .all(),
      indexes: (
        database
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name NOT LIKE 'sqlite_%' ORDER BY name",
          )
          .all(name) as { name: string }[]
      ).map((row) => row.name),
      triggers: (
        database
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ? ORDER BY name",
          )
          .all(name) as { name: string }[]
      ).map((row) => row.name),
    };
  }
  return out;
}

function ours(): Database.Database {
  const database = new Database(":memory:");
  for (const statement of crushSchemaStatements) database.exec(statement);
  return database;
}

/** Applies the Up half of each published migration, oldest first, as goose would. */
function published(): Database.Database | undefined {
  if (!existsSync(mirror)) return undefined;
  const git = (...args: string[]) =>
    execFileSync("git", [`--git-dir=${mirror}`, ...args], { encoding: "utf8" });
  const files = git("ls-tree", "--name-only", `${mirrorCommit}:internal/db/migrations`)
    .trim()
    .split("\n")
    .sort();
  const database = new Database(":memory:");
  database.exec(
    "CREATE TABLE goose_db_version (id INTEGER PRIMARY KEY AUTOINCREMENT, version_id INTEGER NOT NULL, is_applied INTEGER NOT NULL, tstamp TIMESTAMP DEFAULT (datetime('now')))",
  );
  for (const file of files) {
    const text = git("show", `${mirrorCommit}:internal/db/migrations/${file}`);
    const up = text.slice(text.indexOf("-- +goose Up"), text.indexOf("-- +goose Down"));
    database.exec(up.replace(/^-- \+goose.*$/gm, ""));
  }
  return database;
}

describe("the schema the writer creates", () => {
  it("equals what Crush's published migrations produce, column by column", (context) => {
    const database = published();
    if (database === undefined) {
      console.warn(`SKIPPED: the charmbracelet/crush mirror (${mirror}) is absent`);
      context.skip();
      return;
    }
    expect(shape(ours())).toEqual(shape(database));
  });

  it("equals what a database Crush itself made holds (fixture), with goose's versions", () => {
    const made = new Database(crushMadeEmpty, { readonly: true });
    expect(shape(ours())).toEqual(shape(made));
    const versions = (
      made.prepare("SELECT version_id FROM goose_db_version ORDER BY id").all() as {
        version_id: number;
      }[]
    ).map((row) => row.version_id);
    expect(versions).toEqual([...gooseVersionRows]);
  });

  it("control: a schema missing one migration's column is told apart", () => {
    const broken = ours();
    broken.exec("ALTER TABLE messages DROP COLUMN is_summary_message");
    const made = new Database(crushMadeEmpty, { readonly: true });
    expect(shape(broken)).not.toEqual(shape(made));
  });
});
