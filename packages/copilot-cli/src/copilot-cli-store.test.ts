import { promises as fs } from "node:fs";
import os from "node:os";
import path from "node:path";
import { TxcriptError } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { copilotCliCodec } from "./copilot-cli-codec.js";
import { copilotCliHarness } from "./copilot-cli-harness.js";
import { CopilotCliStore } from "./copilot-cli-store.js";
import { exchange } from "./test-support/interop.js";

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-copilot-store-"));
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

const id = "5a1f0e2d-3c4b-4a69-8877-66554433aa11";
const other = "6b2f0e2d-3c4b-4a69-8877-66554433bb22";

async function discovered(store: CopilotCliStore) {
  const found = [];
  const skipped: string[] = [];
  for await (const entry of store.discover((skip) => skipped.push(skip.reason))) found.push(entry);
  return { found, skipped };
}

describe("CopilotCliStore", () => {
  it("defaults to $COPILOT_HOME, else ~/.copilot", () => {
    expect(new CopilotCliStore({ env: { COPILOT_HOME: "/x/copilot" } }).root).toBe("/x/copilot");
    expect(new CopilotCliStore({ env: { HOME: "/home/me" } }).root).toBe("/home/me/.copilot");
    expect(copilotCliHarness.store?.({ HOME: "/home/me" }).root).toBe("/home/me/.copilot");
  });

  it("saves into session-state/<id>/events.jsonl, lists it, and loads it back byte for byte", async () => {
    const store = new CopilotCliStore({ root });
    const native = copilotCliCodec.fromCommon(exchange(id, "/work/project"));
    const saved = await store.save(native);
    expect(saved).toEqual({ id, path: path.join(root, "session-state", id, "events.jsonl") });
    const { found, skipped } = await discovered(store);
    expect(skipped).toEqual([]);
    expect(found).toEqual([
      expect.objectContaining({
        harness: "copilot_cli",
        id,
        path: saved.path,
        cwd: "/work/project",
        title: "txcript interop",
      }),
    ]);
    expect(copilotCliCodec.serialize(await store.load(id))).toBe(copilotCliCodec.serialize(native));
    // The file's time is the last event's.
    expect((await fs.stat(saved.path)).mtime.toISOString()).toBe("2026-11-30T10:00:04.000Z");
  });

  it("refuses to overwrite a saved session unless asked", async () => {
    const store = new CopilotCliStore({ root });
    const native = copilotCliCodec.fromCommon(exchange(id, "/w"));
    await store.save(native);
    await expect(store.save(native)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(store.save(native, { overwrite: true })).resolves.toMatchObject({ id });
  });

  it("lists the earlier flat <id>.jsonl era and the first prompt as a title, and skips what is no event log", async () => {
    const store = new CopilotCliStore({ root });
    const sessions = path.join(root, "session-state");
    await fs.mkdir(path.join(sessions, other), { recursive: true });
    const flat = [
      `{"type":"session.start","data":{"sessionId":"${id}","version":1,"producer":"copilot-agent","copilotVersion":"0.0.330","startTime":"2025-10-01T00:00:00.000Z"},"id":"e1","timestamp":"2025-10-01T00:00:00.000Z","parentId":null}`,
      '{"type":"user.message","data":{"content":"fix the build\\nplease"},"id":"e2","timestamp":"2025-10-01T00:00:01.000Z","parentId":"e1"}',
      "",
    ].join("\n");
    await fs.writeFile(path.join(sessions, `${id}.jsonl`), flat);
    await fs.writeFile(path.join(sessions, other, "events.jsonl"), "not an event log\n");
    await fs.writeFile(path.join(sessions, "notes.txt"), "ignored");
    const { found, skipped } = await discovered(store);
    expect(found.map((entry) => [entry.id, entry.title])).toEqual([[id, "fix the build"]]);
    expect(skipped).toEqual([
      "not a Copilot CLI event log (no session.start with a sessionId in its head)",
    ]);
    expect(copilotCliCodec.toCommon(await store.load(id)).messages).toHaveLength(1);
  });

  it("refuses ids that are not lowercase UUIDs before touching the disk, and names a missing one", async () => {
    const store = new CopilotCliStore({ root });
    for (const bad of ["../etc", "ABCDEF00-0000-4000-8000-000000000000", ""])
      await expect(store.load(bad)).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    const missing = await store.load(other).catch((error: unknown) => error);
    expect(TxcriptError.isInstance(missing) && missing.code).toBe("NOT_FOUND");
  });

  it("deletes a saved session and its directory", async () => {
    const store = new CopilotCliStore({ root });
    const saved = await store.save(copilotCliCodec.fromCommon(exchange(id, "/w")));
    await store.delete(id);
    await expect(fs.stat(path.dirname(saved.path))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("resumes with the id in the flag's own argv word", () => {
    expect(copilotCliHarness.resumeCommand?.(id)).toEqual(["copilot", `--resume=${id}`]);
    expect(copilotCliHarness.resumeCommand?.("--help")).toEqual(["copilot", "--resume=--help"]);
  });
});

describe("copilot_cli parse errors", () => {
  it("names the file, line and column of a line that is not JSON", () => {
    const error = (() => {
      try {
        copilotCliCodec.parse('{"type":"session.start","data":{}}\n{not json}\n', {
          file: "events.jsonl",
        });
      } catch (caught) {
        return caught;
      }
    })();
    expect(TxcriptError.isInstance(error) && error.code).toBe("INVALID_JSON");
    expect((error as TxcriptError).location).toMatchObject({
      file: "events.jsonl",
      line: 2,
      column: 2,
    });
  });
  it("refuses a text whose first event is not a session.start naming its id (an empty file too)", () => {
    for (const text of [
      "",
      "\n",
      '{"type":"user.message","data":{"content":"hi"}}\n',
      '{"type":"session.start","data":{}}\n',
    ])
      expect(() => copilotCliCodec.parse(text, { file: "events.jsonl" })).toThrow(
        expect.objectContaining({
          code: "INVALID_DOCUMENT",
          location: expect.objectContaining({ file: "events.jsonl" }),
        }),
      );
  });
  it("refuses a line that is JSON but not an event object", () => {
    expect(() => copilotCliCodec.parse('{"type":"session.start"}\n[1,2]\n')).toThrow(
      expect.objectContaining({ code: "INVALID_DOCUMENT" }),
    );
  });
});
