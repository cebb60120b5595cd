// The snapshot of a store's root: one stat per entry says whether anything
// under it changed, without reading a file.
import { promises as fs } from "node:fs";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  compareSnapshot,
  compareStored,
  decodeSnapshot,
  encodeSnapshot,
  readStored,
  type Snapshot,
  samePaths,
  takeSnapshot,
} from "./freshness.js";

let root: string;
beforeEach(async () => {
  root = await fs.mkdtemp(path.join(tmpdir(), "txcript-fresh-"));
  await fs.mkdir(path.join(root, "a", "empty"), { recursive: true });
  await fs.writeFile(path.join(root, "a", "one.jsonl"), "1\n");
  await fs.writeFile(path.join(root, "top.json"), "{}");
});
afterEach(async () => {
  await fs.rm(root, { recursive: true, force: true });
});

function snapshot() {
  const taken = takeSnapshot(root);
  if (taken === undefined) throw new Error("no snapshot");
  return taken;
}

describe("takeSnapshot and compareSnapshot", () => {
  it("see nothing changed when nothing did", () => {
    const taken = snapshot();
    expect(taken.dirs.map(([dir]) => path.relative(root, dir)).sort()).toEqual([
      "",
      "a",
      "a/empty",
    ]);
    expect(taken.files.map(([file]) => path.relative(root, file)).sort()).toEqual([
      "a/one.jsonl",
      "top.json",
    ]);
    expect(compareSnapshot(taken)).toEqual({ kind: "none" });
  });

  it("name files written in place", async () => {
    const taken = snapshot();
    await fs.appendFile(path.join(root, "a", "one.jsonl"), "2\n");
    const compared = compareSnapshot(taken);
    expect(compared).toMatchObject({ kind: "files", files: [path.join(root, "a", "one.jsonl")] });
    // With the snapshot a refresh that reads them saves: the walk it spares would find the same.
    expect(compared.kind === "files" && compared.snapshot).toEqual(snapshot());
    expect(compared.kind === "files" && compareSnapshot(compared.snapshot)).toEqual({
      kind: "none",
    });
    // The one compared is left as it was.
    expect(compareSnapshot(taken).kind).toBe("files");
  });

  it("see a file added, even deep in a directory that was empty, removed or renamed", async () => {
    const deep = snapshot();
    await fs.writeFile(path.join(root, "a", "empty", "new.jsonl"), "x");
    expect(compareSnapshot(deep)).toEqual({ kind: "more" });
    const removed = snapshot();
    await fs.rm(path.join(root, "top.json"));
    expect(compareSnapshot(removed)).toEqual({ kind: "more" });
    const renamed = snapshot();
    await fs.rename(path.join(root, "a", "one.jsonl"), path.join(root, "a", "two.jsonl"));
    expect(compareSnapshot(renamed)).toEqual({ kind: "more" });
  });

  it("watch a root that is missing, and one that is a single file with its -wal", async () => {
    const missing = takeSnapshot(path.join(root, "nothing"));
    expect(missing && compareSnapshot(missing)).toEqual({ kind: "none" });
    await fs.mkdir(path.join(root, "nothing"));
    expect(missing && compareSnapshot(missing)).toEqual({ kind: "more" });
    const db = path.join(root, "top.json");
    const single = takeSnapshot(db);
    expect(single && compareSnapshot(single)).toEqual({ kind: "none" });
    await fs.writeFile(`${db}-wal`, "w");
    expect(single && compareSnapshot(single)?.kind).toBe("more");
  });

  it("give up on a root with more entries than the limit", () => {
    expect(takeSnapshot(root, 2)).toBeUndefined();
    expect(takeSnapshot(root, 10)).toBeDefined();
  });
});

describe("a snapshot as the index stores it", () => {
  const stored = (taken: Snapshot) => compareStored(readStored(encodeSnapshot(taken)));

  it("reads back the snapshot it was, in columns relative to the root, or as tuples", async () => {
    const taken = snapshot();
    const text = encodeSnapshot(taken);
    expect(decodeSnapshot(text)).toEqual(taken);
    expect(text.length).toBeLessThan(JSON.stringify(taken).length);
    expect(text).not.toContain(path.join(root, "a"));
    // A root that is one file (its directory outside it), a missing one, and the tuples as such.
    const single = takeSnapshot(path.join(root, "top.json")) as Snapshot;
    const missing = takeSnapshot(path.join(root, "nothing")) as Snapshot;
    for (const other of [single, missing])
      expect(decodeSnapshot(encodeSnapshot(other))).toEqual(other);
    expect(decodeSnapshot(JSON.stringify(taken))).toEqual(taken);
    expect(readStored(text).root).toBe(root);
    // The root is read from the text's head (the columns when first used): quotes and
    // backslashes in it too.
    const odd = path.join(root, 'we"ird\\ dir');
    await fs.mkdir(path.join(odd, "sub"), { recursive: true });
    await fs.writeFile(path.join(odd, "sub", "x.jsonl"), "x");
    const oddTaken = takeSnapshot(odd) as Snapshot;
    const decoded = decodeSnapshot(encodeSnapshot(oddTaken));
    expect(decoded.root).toBe(odd);
    expect(decoded).toEqual(oddTaken);
    expect(decodeSnapshot(encodeSnapshot(missing)).missing).toBe(true);
    expect(compareSnapshot(decoded)).toEqual({ kind: "none" });
  });

  it("compares as the snapshot itself does: nothing, files in place, more", async () => {
    const taken = snapshot();
    expect(stored(taken)).toEqual({ kind: "none" });
    await fs.appendFile(path.join(root, "a", "one.jsonl"), "2\n");
    expect(stored(taken)).toEqual(compareSnapshot(taken));
    expect(stored(taken)).toMatchObject({
      kind: "files",
      files: [path.join(root, "a", "one.jsonl")],
      snapshot: snapshot(),
    });
    await fs.writeFile(path.join(root, "a", "empty", "new.jsonl"), "x");
    expect(stored(taken)).toEqual({ kind: "more" });
    const before = snapshot();
    await fs.rm(path.join(root, "top.json"));
    expect(stored(before)).toEqual({ kind: "more" });
    // The other forms: a root that is one file, a missing root, and tuples stored as such.
    const single = takeSnapshot(path.join(root, "a", "one.jsonl")) as Snapshot;
    expect(stored(single)).toEqual({ kind: "none" });
    await fs.appendFile(path.join(root, "a", "one.jsonl"), "3\n");
    expect(stored(single)).toEqual(compareSnapshot(single));
    expect(stored(single).kind).toBe("files");
    const missing = takeSnapshot(path.join(root, "nothing")) as Snapshot;
    expect(stored(missing)).toEqual({ kind: "none" });
    await fs.mkdir(path.join(root, "nothing"));
    expect(stored(missing)).toEqual({ kind: "more" });
    const now = snapshot();
    expect(compareStored(readStored(JSON.stringify(now)))).toEqual({ kind: "none" });
  });
});

describe("a snapshot over a store's session paths (Store.sessionPaths)", () => {
  const codexPaths = ["sessions/**", "archived_sessions/**", "session_index.jsonl"];
  const geminiPaths = ["projects.json", "tmp/*/.project_root", "tmp/*/chats/**"];
  const write = async (relative: string, text: string) => {
    await fs.mkdir(path.dirname(path.join(root, relative)), { recursive: true });
    await fs.writeFile(path.join(root, relative), text);
  };
  const take = (paths: string[]) => {
    const taken = takeSnapshot(root, undefined, paths);
    if (taken === undefined) throw new Error("no snapshot");
    // Read back as the index stores it, so both forms are held to the same answers.
    return { taken, stored: readStored(encodeSnapshot(taken)) };
  };
  const kinds = (snap: { taken: Snapshot; stored: ReturnType<typeof readStored> }) => {
    const direct = compareSnapshot(snap.taken);
    const stored = compareStored(snap.stored);
    expect(stored.kind).toBe(direct.kind);
    return direct.kind === "files"
      ? direct.files.map((file) => path.relative(root, file)).sort()
      : direct.kind;
  };

  it("like a Codex home: logs and history change nothing, a rollout or the names do", async () => {
    await write("sessions/2026/12/04/rollout-a.jsonl", "1\n");
    await write("session_index.jsonl", "{}\n");
    await write("log/codex-tui.log", "x\n");
    await write("history.jsonl", "h\n");
    const snap = take(codexPaths);
    expect(snap.taken.paths).toEqual(codexPaths);
    expect(snap.stored.paths).toEqual(codexPaths);
    // The root's own time is not recorded (it holds logs too); archived_sessions as missing.
    expect(snap.taken.dirs.map(([dir]) => path.relative(root, dir)).sort()).toEqual([
      "sessions",
      "sessions/2026",
      "sessions/2026/12",
      "sessions/2026/12/04",
    ]);
    expect(snap.taken.files.map(([file, size]) => [path.relative(root, file), size])).toEqual(
      expect.arrayContaining([
        ["archived_sessions", -1],
        ["session_index.jsonl", 3],
        ["sessions/2026/12/04/rollout-a.jsonl", 2],
      ]),
    );
    expect(snap.taken.files).toHaveLength(3);
    await fs.appendFile(path.join(root, "log", "codex-tui.log"), "more\n");
    await fs.appendFile(path.join(root, "history.jsonl"), "more\n");
    await write("models_cache.json", "{}");
    await write("log/other.log", "new");
    expect(kinds(snap)).toBe("none");
    // Control: what discover reads.
    await fs.appendFile(path.join(root, "session_index.jsonl"), "{}\n");
    expect(kinds(snap)).toEqual(["session_index.jsonl"]);
    await fs.appendFile(path.join(root, "sessions/2026/12/04/rollout-a.jsonl"), "2\n");
    expect(kinds(snap)).toEqual(["session_index.jsonl", "sessions/2026/12/04/rollout-a.jsonl"]);
    await write("sessions/2026/12/05/rollout-b.jsonl", "1\n");
    expect(kinds(snap)).toBe("more");
  });

  it("sees a session directory appear where it was missing", async () => {
    await write("sessions/rollout-a.jsonl", "1\n");
    const snap = take(codexPaths);
    await write("archived_sessions/rollout-old.jsonl", "1\n");
    // Something changed, and it is no file already indexed: discover again.
    expect(kinds(snap)).toEqual(["archived_sessions"]);
  });

  it("like a Gemini CLI home: logs.json and history change nothing, a chat, a marker or a project does", async () => {
    await write("projects.json", "{}");
    await write("tmp/app/.project_root", "/work/app");
    await write("tmp/app/chats/session-1.jsonl", "1\n");
    await write("tmp/app/logs.json", "[]");
    await write("history/app/.project_root", "/work/app");
    await write("settings.json", "{}");
    const snap = take(geminiPaths);
    await fs.writeFile(path.join(root, "tmp/app/logs.json"), "[1, 2]");
    await fs.writeFile(path.join(root, "history/app/.project_root"), "/work/other");
    await write("history/new/.project_root", "/work/new");
    await fs.writeFile(path.join(root, "settings.json"), '{"a": 1}');
    await write("tmp/app/checkpoint-x.json", "{}");
    expect(kinds(snap)).toBe("none");
    // Controls.
    await fs.appendFile(path.join(root, "tmp/app/chats/session-1.jsonl"), "2\n");
    expect(kinds(snap)).toEqual(["tmp/app/chats/session-1.jsonl"]);
    await fs.writeFile(path.join(root, "tmp/app/.project_root"), "/work/moved");
    expect(kinds(snap)).toEqual(
      [".project_root", "chats/session-1.jsonl"].map((f) => `tmp/app/${f}`),
    );
    await write("tmp/other/chats/session-2.jsonl", "1\n");
    expect(kinds(snap)).toBe("more");
  });

  it("is not one taken over other paths, and the whole root is the default", async () => {
    const whole = takeSnapshot(root);
    expect(whole?.paths).toBeUndefined();
    expect(whole?.dirs.map(([dir]) => path.relative(root, dir))).toContain("");
    expect(samePaths(take(codexPaths).taken.paths, codexPaths)).toBe(true);
    expect(samePaths(take(codexPaths).taken.paths, geminiPaths)).toBe(false);
    expect(samePaths(whole?.paths, codexPaths)).toBe(false);
    expect(samePaths(undefined, undefined)).toBe(true);
  });
});
