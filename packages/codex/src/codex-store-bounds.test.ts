// How much `CodexStore.discover` reads: every read of node:fs is counted per
// path (the module is wrapped, nothing else changes), so these tests fail if
// listing reads a rollout's end, more of its head than it needs, or the
// session index once per file.
import * as os from "node:os";
import * as path from "node:path";
import type { Discovered } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const counted = vi.hoisted(() => ({
  bytes: new Map<string, number>(),
  wholeReads: new Map<string, number>(),
  descriptors: new Map<number, string>(),
}));

vi.mock("node:fs", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs")>();
  const add = (file: string, bytes: number) =>
    counted.bytes.set(file, (counted.bytes.get(file) ?? 0) + bytes);
  const openSync = ((file: string, ...rest: never[]) => {
    const descriptor = (actual.openSync as (...args: unknown[]) => number)(file, ...rest);
    counted.descriptors.set(descriptor, String(file));
    return descriptor;
  }) as typeof actual.openSync;
  const readSync = ((descriptor: number, ...rest: never[]) => {
    const read = (actual.readSync as (...args: unknown[]) => number)(descriptor, ...rest);
    add(counted.descriptors.get(descriptor) ?? `fd ${descriptor}`, read);
    return read;
  }) as typeof actual.readSync;
  const readFile = (async (file: string, ...rest: never[]) => {
    const text = await (actual.promises.readFile as (...args: unknown[]) => Promise<unknown>)(
      file,
      ...rest,
    );
    counted.wholeReads.set(String(file), (counted.wholeReads.get(String(file)) ?? 0) + 1);
    add(String(file), (text as { length: number }).length);
    return text;
  }) as typeof actual.promises.readFile;
  const open = (async (file: string, ...rest: never[]) => {
    const handle = await (actual.promises.open as (...args: unknown[]) => Promise<never>)(
      file,
      ...rest,
    );
    const read = (handle as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> }).read;
    (handle as { read: unknown }).read = async (...args: unknown[]) => {
      const result = await read.apply(handle, args);
      add(String(file), result.bytesRead);
      return result;
    };
    return handle;
  }) as unknown as typeof actual.promises.open;
  const promises = { ...actual.promises, open, readFile };
  const wrapped = { ...actual, openSync, readSync, promises };
  return { ...wrapped, default: wrapped };
});

const { promises: fs } = await import("node:fs");
const { codexCodec } = await import("./codex-codec.js");
const { CodexStore } = await import("./codex-store.js");

let home: string;
beforeEach(async () => {
  home = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-codex-bounds-"));
  counted.bytes.clear();
  counted.wholeReads.clear();
});
afterEach(async () => {
  await fs.rm(home, { recursive: true, force: true });
});

const day = () => path.join(home, "sessions", "2026", "03", "02");
const line = (timestamp: string, type: string, payload: object) =>
  `${JSON.stringify({ timestamp, type, payload })}\n`;
const meta = (id: string, extra: object = {}) =>
  line("2026-03-02T10:00:00.000Z", "session_meta", {
    id,
    timestamp: "2026-03-02T10:00:00.000Z",
    cwd: "/w",
    originator: "codex_cli_rs",
    cli_version: "0.142.5",
    source: "cli",
    model_provider: "openai",
    ...extra,
  });
const prompt = (text: string) =>
  line("2026-03-02T10:00:01.000Z", "event_msg", { type: "user_message", message: text });
/** 1 KiB lines that are no JSON: a reader that parsed them would find nothing, but it should never reach them. */
const filler = (kib: number) => `${"z".repeat(1023)}\n`.repeat(kib);
const last = line("2026-03-02T11:22:33.444Z", "event_msg", { type: "task_complete" });

async function write(id: string, text: string, mtime: string): Promise<string> {
  await fs.mkdir(day(), { recursive: true });
  const file = path.join(day(), `rollout-2026-03-02T10-00-00-${id}.jsonl`);
  await fs.writeFile(file, text);
  await fs.utimes(file, new Date(mtime), new Date(mtime));
  return file;
}

async function discover(store: InstanceType<typeof CodexStore>): Promise<Discovered[]> {
  const found: Discovered[] = [];
  for await (const entry of store.discover()) found.push(entry);
  return found;
}

describe("CodexStore.discover reads", () => {
  it("no more of a 4 MiB rollout than of a 2 KiB one: one 4 KiB head, nothing from its end", async () => {
    const bigId = "019cae10-5d58-7c31-9a53-2f4c1e8b7a10";
    const smallId = "019cae10-5d58-7c31-9a53-2f4c1e8b7a11";
    const big = await write(
      bigId,
      meta(bigId) + prompt("big one") + filler(4096) + last,
      "2026-03-02T11:22:33.450Z",
    );
    const small = await write(
      smallId,
      meta(smallId) + prompt("small one") + filler(1) + last,
      "2026-03-02T11:22:34.000Z",
    );
    const found = await discover(new CodexStore({ root: home }));
    expect(counted.bytes.get(big)).toBe(4096);
    expect(counted.bytes.get(small)).toBe((await fs.stat(small)).size);
    expect(found.map(({ id, title, updatedAt }) => ({ id, title, updatedAt }))).toEqual([
      { id: smallId, title: "small one", updatedAt: "2026-03-02T11:22:34.000Z" },
      { id: bigId, title: "big one", updatedAt: "2026-03-02T11:22:33.450Z" },
    ]);
  });

  it("more of the head only while the meta line or first prompt is not in it: 32 KiB, then 128 KiB at most", async () => {
    const midId = "019cae10-5d58-7c31-9a53-2f4c1e8b7a14";
    const longId = "019cae10-5d58-7c31-9a53-2f4c1e8b7a12";
    const noneId = "019cae10-5d58-7c31-9a53-2f4c1e8b7a13";
    // A meta line of 20 KB, like Codex 0.142.5's: the prompt after it is inside 32 KiB.
    const mid = await write(
      midId,
      meta(midId, { base_instructions: { text: "i".repeat(20_000) } }) +
        prompt("inside 32 KiB") +
        filler(2048),
      "2026-03-02T11:00:02.000Z",
    );
    // A meta line of 40 KB (Codex 0.1xx base_instructions run 15–22 KB), then the prompt.
    const instructions = { base_instructions: { text: "i".repeat(40_000) } };
    const long = await write(
      longId,
      meta(longId, instructions) + prompt("past the first head") + filler(2048) + last,
      "2026-03-02T11:00:00.000Z",
    );
    // No prompt at all: the head stops at 128 KiB and the session is listed without a title.
    const none = await write(
      noneId,
      meta(noneId) + filler(2048) + last,
      "2026-03-02T11:00:01.000Z",
    );
    const found = await discover(new CodexStore({ root: home }));
    expect(found.map(({ id, title }) => ({ id, title }))).toEqual([
      { id: midId, title: "inside 32 KiB" },
      { id: noneId, title: undefined },
      { id: longId, title: "past the first head" },
    ]);
    expect(counted.bytes.get(mid)).toBe(32_768);
    expect(counted.bytes.get(long)).toBe(131_072);
    expect(counted.bytes.get(none)).toBe(131_072);
  });

  it("of a 4 MiB .jsonl.zst, only the compressed bytes of a 128 KiB head", async () => {
    const id = "019cae10-5d58-7c31-9a53-2f4c1e8b7a15";
    const text = Buffer.from(meta(id) + prompt("compressed") + filler(4096) + last);
    // A zstd frame of raw (stored) 16 KiB blocks: compressed bytes = text bytes, so a
    // reader that inflated the whole file would have to read all 4 MiB of it.
    const blocks: Buffer[] = [Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
    for (let at = 0; at < text.length; at += 16_384) {
      const block = text.subarray(at, at + 16_384);
      const header = (block.length << 3) | (at + 16_384 >= text.length ? 1 : 0);
      blocks.push(Buffer.from([header & 0xff, (header >> 8) & 0xff, header >> 16]), block);
    }
    await fs.mkdir(day(), { recursive: true });
    const file = path.join(day(), `rollout-2026-03-02T10-00-00-${id}.jsonl.zst`);
    await fs.writeFile(file, Buffer.concat(blocks));
    await fs.utimes(
      file,
      new Date("2026-03-02T11:22:34.000Z"),
      new Date("2026-03-02T11:22:34.000Z"),
    );
    const store = new CodexStore({ root: home });
    const found = await discover(store);
    expect(found.map(({ id, title, updatedAt }) => ({ id, title, updatedAt }))).toEqual([
      { id, title: "compressed", updatedAt: "2026-03-02T11:22:34.000Z" },
    ]);
    expect(counted.bytes.get(file)).toBeGreaterThan(0);
    expect(counted.bytes.get(file)).toBeLessThanOrEqual(131_072 + 2 * 16_384);
    // The frame is whole: loading it inflates every byte back.
    expect(codexCodec.serialize(await store.load(id))).toBe(text.toString("utf8"));
  });

  it("session_index.jsonl once per discover, however many rollouts", async () => {
    const ids = [0, 1, 2].map((n) => `019cae10-5d58-7c31-9a53-2f4c1e8b7a2${n}`);
    for (const id of ids) await write(id, meta(id) + prompt(`p ${id}`), "2026-03-02T11:00:00.000Z");
    const index = path.join(home, "session_index.jsonl");
    await fs.writeFile(
      index,
      `${JSON.stringify({ id: ids[1], thread_name: "Named", updated_at: "2026-03-02T11:00:00Z" })}\n`,
    );
    const found = await discover(new CodexStore({ root: home }));
    expect(found.map((entry) => entry.title).sort()).toEqual([
      "Named",
      `p ${ids[0]}`,
      `p ${ids[2]}`,
    ]);
    expect(counted.wholeReads.get(index)).toBe(1);
    expect([...counted.wholeReads.keys()]).toEqual([index]);
  });

  it("takes a rollout Codex appended to at the time of the append", async () => {
    const store = new CodexStore({ root: home });
    const saved = await store.save(
      codexCodec.fromCommon({
        meta: { id: "019cae10-5d58-7c31-9a53-2f4c1e8b7a30", timestamp: "2026-03-02T10:00:00.000Z" },
        messages: [
          {
            role: "user",
            content: [{ type: "text", text: "hi" }],
            timestamp: "2026-03-02T10:00:01.000Z",
          },
          {
            role: "assistant",
            content: [{ type: "text", text: "hello" }],
            timestamp: "2026-03-02T10:00:02.500Z",
          },
        ],
      }),
    );
    expect((await discover(store))[0]?.updatedAt).toBe("2026-03-02T10:00:02.500Z");
    // `codex resume` appends its new events as they happen: the file's mtime moves with them.
    const resumed = new Date();
    await fs.appendFile(
      saved.path,
      line(resumed.toISOString(), "event_msg", { type: "user_message", message: "again" }),
    );
    const updatedAt = (await discover(store))[0]?.updatedAt as string;
    expect(updatedAt).toBe((await fs.stat(saved.path)).mtime.toISOString());
    expect(Math.abs(Date.parse(updatedAt) - resumed.getTime())).toBeLessThan(5_000);
  });
});
