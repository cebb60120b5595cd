import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TxcriptError } from "./errors.js";
import { assertInside, readHead, textPieces, writeFileAtomic } from "./files.js";

// The child processes load TypeScript source through tsx, resolved from this package.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
let directory: string;
beforeEach(async () => {
  directory = await fs.mkdtemp(path.join(os.tmpdir(), "txcript-files-"));
});
afterEach(async () => {
  vi.restoreAllMocks();
  await fs.rm(directory, { recursive: true, force: true });
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (TxcriptError.isInstance(error)) return error.code;
    throw error;
  }
  return "none";
}

describe("writeFileAtomic", () => {
  it("writes, refuses to clobber, and overwrites only when asked", async () => {
    const target = path.join(directory, "a.json");
    await writeFileAtomic(target, "one");
    expect(await codeOf(writeFileAtomic(target, "two"))).toBe("CONFLICT");
    expect(await fs.readFile(target, "utf8")).toBe("one");
    await writeFileAtomic(target, "three", { overwrite: true });
    expect(await fs.readFile(target, "utf8")).toBe("three");
    expect(await fs.readdir(directory)).toEqual(["a.json"]);
  });
  it("refuses to write through a symlink", async () => {
    const outside = path.join(directory, "outside.txt");
    await fs.writeFile(outside, "keep");
    const link = path.join(directory, "link.json");
    await fs.symlink(outside, link);
    expect(await codeOf(writeFileAtomic(link, "x", { overwrite: true }))).toBe("UNSAFE_PATH");
    expect(await fs.readFile(outside, "utf8")).toBe("keep");
  });
  it("refuses a target outside its root", async () => {
    expect(
      await codeOf(
        writeFileAtomic(path.join(directory, "..", "escape.json"), "x", { root: directory }),
      ),
    ).toBe("UNSAFE_PATH");
  });
  it("leaves no temporary file and no target when the write fails midway", async () => {
    const target = path.join(directory, "b.json");
    const original = fs.open;
    vi.spyOn(fs, "open").mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      const handle = await original(...args);
      handle.writeFile = async () => {
        throw Object.assign(new Error("ENOSPC: no space left on device"), { code: "ENOSPC" });
      };
      return handle;
    });
    const error = await writeFileAtomic(target, "data").catch((caught: unknown) => caught);
    expect(TxcriptError.isInstance(error) && error.message).toBe(
      "cannot write: no space left on device",
    );
    expect(await fs.readdir(directory)).toEqual([]);
  });
  it("lets exactly one of many racing processes win, with whole contents", async () => {
    const target = path.join(directory, "race.json");
    const moduleUrl = new URL("./files.ts", import.meta.url).href;
    const script = `
      const { writeFileAtomic } = await import(${JSON.stringify(moduleUrl)});
      try { await writeFileAtomic(${JSON.stringify(target)}, "writer " + process.argv[1] + " ".repeat(200000)); console.log("won"); }
      catch (error) { console.log(error.code); }`;
    const run = promisify(execFile);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        run(process.execPath, [
          "--import",
          tsxLoader,
          "--input-type=module",
          "-e",
          script,
          String(index),
        ]).then(
          (result) => result.stdout.trim(),
          (error: Error) => `spawn failed: ${error.message}`,
        ),
      ),
    );
    expect(
      results.filter((result) => result === "won"),
      results.join("; "),
    ).toHaveLength(1);
    expect(results.filter((result) => result === "CONFLICT")).toHaveLength(5);
    const content = await fs.readFile(target, "utf8");
    expect(content).toMatch(/^writer \d {200000}$/);
    expect((await fs.readdir(directory)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });
});

describe("assertInside", () => {
  it("accepts children and refuses the root itself, parents and siblings", () => {
    expect(() => assertInside("/a/b", "/a/b/c.json")).not.toThrow();
    for (const bad of ["/a/b", "/a/b/../c.json", "/a/bc/x.json", "/etc/passwd"]) {
      expect(() => assertInside("/a/b", bad)).toThrowError(/escapes/);
    }
  });
});

describe("readHead", () => {
  it("reads only the first bytes and drops a cut character", async () => {
    const file = path.join(directory, "h.txt");
    await fs.writeFile(file, "ab😀cd");
    expect(await readHead(file, 4)).toBe("ab");
    expect(await readHead(file, 100)).toBe("ab😀cd");
  });
});

describe("writeFileAtomic with text in slices", () => {
  it("writes the slices in order, and refuses to clobber without overwrite", async () => {
    const target = path.join(directory, "out.jsonl");
    await writeFileAtomic(target, ["a\n", "", "ü\n"]);
    expect(await fs.readFile(target, "utf8")).toBe("a\nü\n");
    await expect(writeFileAtomic(target, ["b"])).rejects.toMatchObject({ code: "CONFLICT" });
    await writeFileAtomic(target, ["b"], { overwrite: true });
    expect(await fs.readFile(target, "utf8")).toBe("b");
  });

  it("encodes a big slice in pieces without splitting a surrogate pair", async () => {
    const text = `a${"😀".repeat(5)}b😀`;
    for (const length of [1, 2, 3, 4, 100]) {
      const parts = [...textPieces(text, length)];
      expect(parts.join("")).toBe(text);
      for (const part of parts) expect(Buffer.from(part, "utf8").toString("utf8")).toBe(part);
    }
    const target = path.join(directory, "emoji.txt");
    await writeFileAtomic(target, [text.repeat(200_000)]);
    expect(await fs.readFile(target, "utf8")).toBe(text.repeat(200_000));
  });

  it("refuses a symlink target", async () => {
    const target = path.join(directory, "link");
    await fs.symlink(path.join(directory, "elsewhere"), target);
    await expect(writeFileAtomic(target, ["x"], { overwrite: true })).rejects.toMatchObject({
      code: "UNSAFE_PATH",
    });
  });

  it("leaves nothing behind and rethrows the error as is when a slice cannot be made", async () => {
    const target = path.join(directory, "out.jsonl");
    const failure = new TxcriptError("TOO_LARGE", "too deep");
    function* slices() {
      yield "first\n";
      throw failure;
    }
    await expect(writeFileAtomic(target, slices())).rejects.toBe(failure);
    const plain = new RangeError("not ours");
    function* broken() {
      yield "x";
      throw plain;
    }
    await expect(writeFileAtomic(target, broken())).rejects.toBe(plain);
    expect(await fs.readdir(directory)).toEqual([]);
  });
});
