// Every session of every real Crush database in fixtures/crush (byte copies,
// provenance in fixtures/crush/README.md) reads into a valid Common
// transcript whose tool calls and results are the ones the rows hold (counted
// by SQL, not by the reader), and writes back into a new database that reads
// the same.
import { copyFileSync, mkdtempSync, readdirSync } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Transcript } from "@txcript/core";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { CrushStore } from "./crush-store.js";
import { crushToCommon } from "./crush-to-common.js";

const directory = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/crush",
);
const databases = readdirSync(directory)
  .filter((name) => name.endsWith(".crush.db"))
  .sort();

function count(file: string, id: string, type: string, key: string): number {
  const database = new Database(file, { readonly: true });
  try {
    const row = database
      .prepare(
        `SELECT count(*) AS n FROM messages m, json_each(m.parts) j WHERE m.session_id = ? AND j.value->>'type' = ? AND coalesce(j.value->'data'->>?, '') != ''`,
      )
      .get(id, type, key) as { n: number };
    return row.n;
  } finally {
    database.close();
  }
}

describe("real Crush databases", () => {
  it("are all here", () => expect(databases).toHaveLength(4));
  for (const name of databases)
    it(`${name}: every session reads, matches its rows, and writes back the same`, async () => {
      // A copy: SQLite makes -shm/-wal files beside a WAL database even when reading.
      const file = path.join(mkdtempSync(path.join(os.tmpdir(), "crush-fixture-")), "crush.db");
      copyFileSync(path.join(directory, name), file);
      const store = new CrushStore({ root: file });
      const ids: string[] = [];
      for await (const found of store.discover()) ids.push(found.id);
      for (const id of ids) {
        const common = crushToCommon(await store.load(id));
        expect(Transcript.safeParse(common).success).toBe(true);
        const blocks = common.messages.flatMap((message) => message.content);
        expect(blocks.filter((block) => block.type === "tool_use")).toHaveLength(
          count(file, id, "tool_call", "id"),
        );
        expect(blocks.filter((block) => block.type === "tool_result")).toHaveLength(
          count(file, id, "tool_result", "tool_call_id"),
        );
        const copy = new CrushStore({
          root: path.join(mkdtempSync(path.join(os.tmpdir(), "crush-fx-")), "crush.db"),
        });
        await copy.save(await store.load(id));
        expect(crushToCommon(await copy.load(id))).toEqual(common);
      }
    });
});

describe("the dump fixture (txcript's JSON form of swift-kdl's session)", () => {
  it("is byte-exact through parse and serialize, and reads as its .common.json", async () => {
    const { readFileSync } = await import("node:fs");
    const { commonCodec } = await import("@txcript/core");
    const { crushCodec } = await import("./crush-codec.js");
    const text = readFileSync(path.join(directory, "swift-kdl.crush.json"), "utf8");
    expect(crushCodec.serialize(crushCodec.parse(text))).toBe(text);
    const expected = commonCodec.toCommon(
      commonCodec.parse(readFileSync(path.join(directory, "swift-kdl.common.json"), "utf8")),
    );
    expect(crushCodec.toCommon(crushCodec.parse(text))).toEqual(expected);
  });
});
