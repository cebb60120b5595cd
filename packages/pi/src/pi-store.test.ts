import { promises as fs } from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Discovered, SkippedFile, Transcript } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { piCodec } from "./pi-codec.js";
import { piAgentDir, piSessionsRoot } from "./pi-paths.js";
import { PiStore } from "./pi-store.js";

const at = "2026-05-01T12:30:45.678Z";
function transcript(id: string, cwd = "/home/me/app"): Transcript {
  return {
    meta: { id, timestamp: at, cwd, title: `title of ${id}` },
    messages: [{ role: "user", content: [{ type: "text", text: "hello" }], timestamp: at }],
  };
}

let temporary: string;
beforeEach(async () => {
  temporary = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-pi-store-"));
});
afterEach(async () => {
  await fs.rm(temporary, { recursive: true, force: true });
});

async function all(store: PiStore, skipped: SkippedFile[] = []): Promise<Discovered[]> {
  const found: Discovered[] = [];
  for await (const session of store.discover((skip) => skipped.push(skip))) found.push(session);
  return found;
}

describe("where pi keeps sessions", () => {
  it("honours PI_CODING_AGENT_DIR and PI_CODING_AGENT_SESSION_DIR", () => {
    expect(piAgentDir({ HOME: "/h" })).toBe("/h/.pi/agent");
    expect(piAgentDir({ HOME: "/h", PI_CODING_AGENT_DIR: "~/agent" })).toBe("/h/agent");
    expect(piSessionsRoot({ HOME: "/h" })).toEqual({ root: "/h/.pi/agent/sessions", flat: false });
    expect(piSessionsRoot({ HOME: "/h", PI_CODING_AGENT_SESSION_DIR: "/s" })).toEqual({
      root: "/s",
      flat: true,
    });
  });
});

describe("PiStore", () => {
  it("saves under the munged cwd with pi's file name, finds, loads and deletes by the header id", async () => {
    const store = new PiStore({ env: { HOME: temporary } });
    const saved = await store.save(piCodec.fromCommon(transcript("019a0000-aaaa")));
    expect(saved.path).toBe(
      path.join(
        temporary,
        ".pi/agent/sessions/--home-me-app--/2026-05-01T12-30-45-678Z_019a0000-aaaa.jsonl",
      ),
    );
    const found = await all(store);
    expect(found).toEqual([
      expect.objectContaining({
        harness: "pi",
        id: "019a0000-aaaa",
        path: saved.path,
        cwd: "/home/me/app",
        title: "title of 019a0000-aaaa",
      }),
    ]);
    const loaded = await store.load("019a0000-aaaa");
    expect(piCodec.toCommon(loaded).meta.id).toBe("019a0000-aaaa");
    await store.delete("019a0000-aaaa");
    await expect(store.load("019a0000-aaaa")).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never clobbers: the same id again is a CONFLICT unless asked", async () => {
    const store = new PiStore({ root: path.join(temporary, "sessions") });
    const session = piCodec.fromCommon(transcript("same"));
    await store.save(session);
    await expect(store.save(session)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(
      store.save(piCodec.fromCommon(transcript("same", "/other"))),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(store.save(session, { overwrite: true })).resolves.toMatchObject({ id: "same" });
  });

  it("keeps every session directly in PI_CODING_AGENT_SESSION_DIR", async () => {
    const flat = path.join(temporary, "flat");
    const store = new PiStore({ env: { HOME: temporary, PI_CODING_AGENT_SESSION_DIR: flat } });
    const saved = await store.save(piCodec.fromCommon(transcript("flat-one")));
    expect(path.dirname(saved.path)).toBe(flat);
    expect((await all(store)).map((session) => session.id)).toEqual(["flat-one"]);
  });

  it("skips files that are not sessions, and takes the title from a session_info near the end of a long file", async () => {
    const root = path.join(temporary, "sessions");
    const store = new PiStore({ root });
    const long = transcript("long-one");
    long.messages = Array.from({ length: 400 }, (_, index) => ({
      role: "user" as const,
      content: [{ type: "text" as const, text: `message ${index} ${"x".repeat(400)}` }],
      timestamp: at,
    }));
    const saved = await store.save(piCodec.fromCommon(long));
    expect((await fs.stat(saved.path)).size).toBeGreaterThan(2 * 65_536);
    await fs.writeFile(path.join(path.dirname(saved.path), "notes.jsonl"), '{"hello":1}\n');
    const skipped: SkippedFile[] = [];
    const found = await all(store, skipped);
    expect(found.map((session) => [session.id, session.title])).toEqual([
      ["long-one", "title of long-one"],
    ]);
    expect(skipped).toEqual([
      expect.objectContaining({ reason: expect.stringContaining("not a pi session") }),
    ]);
  });

  it("refuses ids that are not safe file-name words, and sessions without a cwd to file them under", async () => {
    const store = new PiStore({ root: path.join(temporary, "sessions") });
    await expect(store.load("../etc/passwd")).rejects.toMatchObject({ code: "UNSAFE_PATH" });
    const { cwd: _, ...meta } = transcript("no-cwd").meta;
    const session = piCodec.fromCommon({ ...transcript("no-cwd"), meta });
    await expect(store.save(session)).rejects.toMatchObject({ code: "USAGE" });
    await expect(store.save(session, { cwd: "/given" })).resolves.toMatchObject({ id: "no-cwd" });
  });
});
