import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { type Discovered, type SkippedFile, type Transcript, TxcriptError } from "@txcript/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ampCodec } from "./amp-codec.js";
import type { AmpThread } from "./amp-schema.js";
import { AmpStore } from "./amp-store.js";

const transcript: Transcript = {
  meta: { id: "session-1", timestamp: "2026-01-10T10:00:00.000Z", cwd: "/w", title: "First" },
  messages: [
    {
      role: "user",
      content: [{ type: "text", text: "hi" }],
      timestamp: "2026-01-10T10:00:01.000Z",
    },
    {
      role: "assistant",
      content: [{ type: "text", text: "hello" }],
      timestamp: "2026-01-10T10:00:01.000Z",
    },
  ],
};

let scratch: string;
let root: string;
beforeEach(() => {
  scratch = mkdtempSync(path.join(tmpdir(), "amp-store-"));
  root = path.join(scratch, "threads");
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error.code;
    throw error;
  }
  return "resolved";
}

function withId(id: string): AmpThread {
  const native = ampCodec.fromCommon(transcript);
  return { ...native, document: { ...native.document, id } };
}

async function list(store: AmpStore) {
  const found: Discovered[] = [];
  const skipped: SkippedFile[] = [];
  for await (const item of store.discover((skip) => skipped.push(skip))) found.push(item);
  return { found, skipped };
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { recursive: true }).map(String).sort();
}

describe("AmpStore.defaultRoot", () => {
  it("prefers AMP_THREADS_DIR, then XDG_DATA_HOME (not on Windows), then ~/.local/share", () => {
    expect(
      AmpStore.defaultRoot({ AMP_THREADS_DIR: "/t", XDG_DATA_HOME: "/x", HOME: "/h" }, "linux"),
    ).toBe(path.resolve("/t"));
    expect(AmpStore.defaultRoot({ XDG_DATA_HOME: "/x", HOME: "/h" }, "linux")).toBe(
      path.join("/x", "amp", "threads"),
    );
    expect(AmpStore.defaultRoot({ XDG_DATA_HOME: "/x", HOME: "/h" }, "win32")).toBe(
      path.join("/h", ".local", "share", "amp", "threads"),
    );
    expect(AmpStore.defaultRoot({ XDG_DATA_HOME: "relative", HOME: "/h" }, "linux")).toBe(
      path.join("/h", ".local", "share", "amp", "threads"),
    );
    expect(new AmpStore({ env: { AMP_THREADS_DIR: root } }).root).toBe(root);
  });
});

describe("AmpStore save / load / delete", () => {
  it("saves atomically, loads byte-exact, refuses to clobber unless asked, deletes", async () => {
    const store = new AmpStore({ root });
    const native = ampCodec.fromCommon(transcript);
    const { id, path: file } = await store.save(native);
    expect(file).toBe(path.join(root, `${id}.json`));
    expect(readFileSync(file, "utf8")).toBe(ampCodec.serialize(native));
    expect(ampCodec.serialize(await store.load(id))).toBe(ampCodec.serialize(native));
    expect(await code(store.save(native))).toBe("CONFLICT");
    expect(await code(store.save(native, { overwrite: true }))).toBe("resolved");
    expect(filesUnder(root)).toEqual([`${id}.json`]);
    await store.delete(id);
    expect(existsSync(file)).toBe(false);
    expect(await code(store.load(id))).toBe("NOT_FOUND");
    expect(await code(store.delete(id))).toBe("NOT_FOUND");
  });

  const hostile = [
    "../x",
    "T-../../etc",
    "/etc/passwd",
    "/tmp/escape",
    "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001\u0000",
    "T-abcdefg",
    `T-${"0".repeat(10_240)}`,
    "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001/../../x",
  ];
  for (const id of hostile) {
    it(`never writes, reads or deletes outside the root for ${JSON.stringify(id.slice(0, 40))}`, async () => {
      const store = new AmpStore({ root });
      mkdirSync(root, { recursive: true });
      writeFileSync(path.join(scratch, "x"), "outside");
      expect(await code(store.save(withId(id)))).toBe("UNSAFE_PATH");
      expect(await code(store.save(withId(id), { overwrite: true }))).toBe("UNSAFE_PATH");
      expect(await code(store.load(id))).toBe("UNSAFE_PATH");
      expect(await code(store.delete(id))).toBe("UNSAFE_PATH");
      expect(filesUnder(scratch)).toEqual(["threads", "x"]);
      expect(readFileSync(path.join(scratch, "x"), "utf8")).toBe("outside");
    });
  }

  it("refuses to write or read through a symbolic link", async () => {
    const store = new AmpStore({ root });
    const native = ampCodec.fromCommon(transcript);
    const id = native.document.id as string;
    mkdirSync(root, { recursive: true });
    const outside = path.join(scratch, "target.json");
    writeFileSync(outside, "precious");
    symlinkSync(outside, path.join(root, `${id}.json`));
    expect(await code(store.save(native, { overwrite: true }))).toBe("UNSAFE_PATH");
    expect(await code(store.load(id))).toBe("UNSAFE_PATH");
    expect(readFileSync(outside, "utf8")).toBe("precious");
  });

  // Each would block (a FIFO with no writer) or read a directory: the race
  // against a timer turns a hang into a failure instead of a stuck run.
  async function settled(promise: Promise<unknown>): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const hung = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve("hung"), 5000);
    });
    try {
      return await Promise.race([code(promise), hung]);
    } finally {
      clearTimeout(timer);
    }
  }

  it.skipIf(process.platform === "win32")(
    "refuses to load or delete a FIFO named like a thread, without blocking",
    async () => {
      const store = new AmpStore({ root });
      const { id, path: file } = await store.save(ampCodec.fromCommon(transcript));
      rmSync(file);
      execFileSync("mkfifo", [file]);
      expect(await settled(store.load(id))).toBe("IO");
      expect(await settled(store.delete(id))).toBe("IO");
      expect(existsSync(file)).toBe(true);
    },
  );

  it("refuses to load or delete a directory named like a thread", async () => {
    const store = new AmpStore({ root });
    const { id, path: file } = await store.save(ampCodec.fromCommon(transcript));
    rmSync(file);
    mkdirSync(file);
    expect(await settled(store.load(id))).toBe("IO");
    expect(await settled(store.delete(id))).toBe("IO");
    expect(existsSync(file)).toBe(true);
  });

  it("refuses to delete through a symbolic link, leaving link and target", async () => {
    const store = new AmpStore({ root });
    const id = ampCodec.fromCommon(transcript).document.id as string;
    mkdirSync(root, { recursive: true });
    const outside = path.join(scratch, "target.json");
    writeFileSync(outside, "precious");
    symlinkSync(outside, path.join(root, `${id}.json`));
    expect(await code(store.delete(id))).toBe("UNSAFE_PATH");
    expect(readFileSync(outside, "utf8")).toBe("precious");
    expect(readdirSync(root)).toEqual([`${id}.json`]);
  });

  it("refuses a document without a string id", async () => {
    const native = ampCodec.fromCommon(transcript);
    const broken = { ...native, document: { ...native.document, id: 7 } } as unknown as AmpThread;
    expect(await code(new AmpStore({ root }).save(broken))).toBe("INVALID_DOCUMENT");
  });
});

describe("AmpStore.discover", () => {
  it("lists nothing for a missing root", async () => {
    expect(await list(new AmpStore({ root }))).toEqual({ found: [], skipped: [] });
  });

  it("lists threads from their heads and skips everything else with a reason", async () => {
    const store = new AmpStore({ root });
    const { id } = await store.save(ampCodec.fromCommon(transcript));
    writeFileSync(
      path.join(root, "T-00000000-0000-4000-8000-000000000001.json"),
      '{"name": "not a thread"}',
    );
    writeFileSync(path.join(root, "T-00000000-0000-4000-8000-000000000002.json"), "\u0000garbage");
    writeFileSync(path.join(root, "settings.json"), '{"v": 1, "messages": []}');
    writeFileSync(path.join(root, "notes.txt"), "ignored: not *.json");
    symlinkSync(
      path.join(root, `${id}.json`),
      path.join(root, "T-00000000-0000-4000-8000-000000000003.json"),
    );
    const unreadable = path.join(root, "T-00000000-0000-4000-8000-000000000004.json");
    writeFileSync(unreadable, '{"name": 1}');
    chmodSync(unreadable, 0);
    const canRead = process.getuid?.() === 0;
    const { found, skipped } = await list(store);
    expect(found).toEqual([
      expect.objectContaining({
        harness: "amp",
        id,
        title: "First",
        cwd: "/w",
        messageCount: 2,
        path: path.join(root, `${id}.json`),
      }),
    ]);
    expect(Number.isNaN(Date.parse(found[0]?.updatedAt ?? ""))).toBe(false);
    const reasons = Object.fromEntries(
      skipped.map((skip) => [path.basename(skip.path), skip.reason]),
    );
    expect(Object.keys(reasons).sort()).toEqual([
      "T-00000000-0000-4000-8000-000000000001.json",
      "T-00000000-0000-4000-8000-000000000002.json",
      "T-00000000-0000-4000-8000-000000000003.json",
      "T-00000000-0000-4000-8000-000000000004.json",
      "settings.json",
    ]);
    expect(reasons["T-00000000-0000-4000-8000-000000000003.json"]).toMatch(/symbolic link/);
    // Root reads any file: then it is skipped by the sniff instead of as unreadable.
    expect(reasons["T-00000000-0000-4000-8000-000000000004.json"]).toMatch(
      canRead ? /no top-level `v`/ : /unreadable/,
    );
  });

  it("lists a large thread from its head alone: a broken tail past the head does not matter", async () => {
    const store = new AmpStore({ root });
    const native = ampCodec.fromCommon(transcript);
    const id = native.document.id as string;
    const text = ampCodec.serialize(native);
    const cut = text.indexOf('"messages"');
    // 2 MB of messages, then a tail a whole parse would reject.
    const filler =
      `{"role":"user","content":[{"type":"text","text":"${"x".repeat(1000)}"}]},`.repeat(2000);
    mkdirSync(root, { recursive: true });
    writeFileSync(
      path.join(root, `${id}.json`),
      `${text.slice(0, cut)}"messages": [${filler} !!! not json`,
    );
    const { found, skipped } = await list(store);
    expect(skipped).toEqual([]);
    expect(found).toEqual([expect.objectContaining({ id, title: "First", cwd: "/w" })]);
    expect(found[0]?.messageCount).toBeUndefined();
  });

  it("reads further when the keys before `messages` outgrow the first head, up to 256 KiB", async () => {
    const store = new AmpStore({ root });
    mkdirSync(root, { recursive: true });
    const filler =
      `{"role":"user","content":[{"type":"text","text":"${"x".repeat(1000)}"}]},`.repeat(300);
    const thread = (id: string, title: string) =>
      writeFileSync(
        path.join(root, `${id}.json`),
        `{"v": 1, "id": "${id}", "title": "${title}", "env": {"initial": {"trees": [{"uri": "file:///w"}]}}, "messages": [${filler}{}]}`,
      );
    // A 100 KB title: found after reading on past the first 16 KiB.
    const long = "T-00000000-0000-4000-8000-00000000000a";
    thread(long, "t".repeat(100_000));
    // A 300 KB title: past the bound, so only what precedes it is known.
    const huge = "T-00000000-0000-4000-8000-00000000000b";
    thread(huge, "h".repeat(300_000));
    const { found, skipped } = await list(store);
    expect(skipped).toEqual([]);
    expect(found.map((entry) => [entry.id, entry.title?.length, entry.cwd])).toEqual([
      [long, 100_000, "/w"],
      [huge, undefined, undefined],
    ]);
  });

  it("counts messages of a thread that fits in the head, not of a longer one", async () => {
    const store = new AmpStore({ root });
    const native = ampCodec.fromCommon(transcript);
    const { id: small } = await store.save(native);
    const many: Transcript = {
      ...transcript,
      meta: { ...transcript.meta, id: "a longer session" },
      messages: Array.from({ length: 40 }, () => transcript.messages).flat(),
    };
    // 80 messages of padding text: over 16 KiB.
    for (const message of many.messages)
      message.content = [{ type: "text", text: "y".repeat(300) }];
    const { id: large, path: largeFile } = await store.save(ampCodec.fromCommon(many));
    expect(readFileSync(largeFile, "utf8").length).toBeGreaterThan(16 * 1024);
    const { found } = await list(store);
    const byId = new Map(found.map((entry) => [entry.id, entry]));
    expect(byId.get(small)?.messageCount).toBe(2);
    expect(byId.get(large)).toEqual(
      expect.objectContaining({ id: large, title: "First", cwd: "/w" }),
    );
    expect(byId.get(large)?.messageCount).toBeUndefined();
  });

  it("lists hundreds of threads in file-name order, with skips in between", async () => {
    const store = new AmpStore({ root });
    mkdirSync(root, { recursive: true });
    const text = ampCodec.serialize(ampCodec.fromCommon(transcript));
    const ids: string[] = [];
    for (let index = 0; index < 300; index += 1) {
      const id = `T-00000000-0000-4000-8000-${String(index).padStart(12, "0")}`;
      if (index % 50 === 7) writeFileSync(path.join(root, `${id}.json`), '{"not": "a thread"}');
      else {
        writeFileSync(path.join(root, `${id}.json`), text.replace(/"T-[^"]*"/, `"${id}"`));
        ids.push(id);
      }
    }
    const { found, skipped } = await list(store);
    expect(found.map((entry) => entry.id)).toEqual(ids);
    expect(found.every((entry) => entry.messageCount === 2 && entry.title === "First")).toBe(true);
    expect(skipped).toHaveLength(6);
  });
});
