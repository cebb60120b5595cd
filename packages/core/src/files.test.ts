import { execFile } from "node:child_process";
import { promises as fs } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TxcriptError } from "./errors.js";
import {
  assertInside,
  makeDirectory,
  makeDirectoryInside,
  readHead,
  temporaryPrefix,
  textPieces,
  writeFileAtomic,
} from "./files.js";

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

describe("writeFileAtomic with its head last (HeadLast)", () => {
  /** Content whose head is made from what the rest held, as stream-json's init line is. */
  function headLast(lines: string[]) {
    let seen = 0;
    return {
      rest: (function* () {
        for (const line of lines) {
          seen += 1;
          yield line;
        }
      })(),
      head: () => `head of ${seen}\n`,
    };
  }

  it("writes the head before the rest, asked for once the rest is written, and leaves no spool", async () => {
    const target = path.join(directory, "out.jsonl");
    // Past the copy's buffer (1 MiB), so the spool is copied in more than one read.
    const big = `${"x".repeat(700_000)}ü\n`;
    await writeFileAtomic(target, headLast(["a\n", big, big, "b\n"]));
    expect(await fs.readFile(target, "utf8")).toBe(`head of 4\na\n${big}${big}b\n`);
    expect(await fs.readdir(directory)).toEqual(["out.jsonl"]);
    await expect(writeFileAtomic(target, headLast(["c\n"]))).rejects.toMatchObject({
      code: "CONFLICT",
    });
    await writeFileAtomic(target, headLast([]), { overwrite: true });
    expect(await fs.readFile(target, "utf8")).toBe("head of 0\n");
  });

  it("leaves nothing behind and rethrows the error as is when the rest or the head cannot be made", async () => {
    const target = path.join(directory, "out.jsonl");
    const failure = new TxcriptError("TOO_LARGE", "too deep");
    const rest = (function* () {
      yield "first\n";
      throw failure;
    })();
    await expect(writeFileAtomic(target, { rest, head: () => "h\n" })).rejects.toBe(failure);
    const plain = new RangeError("no head");
    await expect(
      writeFileAtomic(target, {
        rest: ["a\n"],
        head: () => {
          throw plain;
        },
      }),
    ).rejects.toBe(plain);
    expect(await fs.readdir(directory)).toEqual([]);
  });
});

describe("writeFileAtomic: what an interrupted or hostile write leaves (issue 33, item 6)", () => {
  const moduleUrl = new URL("./files.ts", import.meta.url).href;
  /**
   * A child that writes 64 MiB in 1 MiB slices and, at the 8th slice (mid-write,
   * the temporary file open and part written), sends itself `signal`. The
   * signal is taken at the next await of the write: no timing involved.
   */
  function interrupted(target: string, signal: string) {
    const script = `
      const { writeFileAtomic } = await import(${JSON.stringify(moduleUrl)});
      const slices = function* () {
        for (let index = 0; index < 64; index += 1) {
          if (index === 8) process.kill(process.pid, ${JSON.stringify(signal)});
          yield "x".repeat(1 << 20);
        }
      };
      await writeFileAtomic(${JSON.stringify(target)}, slices());
      console.log("finished");`;
    return new Promise<{ code: number | null; signal: string | null; stdout: string }>(
      (resolve) => {
        const child = execFile(
          process.execPath,
          ["--import", tsxLoader, "--input-type=module", "-e", script],
          (_error, stdout) => resolve({ code: child.exitCode, signal: child.signalCode, stdout }),
        );
      },
    );
  }

  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"])
    it(`${signal} mid-write: the process ends by the signal and no temporary file remains`, async () => {
      const target = path.join(directory, "big.json");
      const result = await interrupted(target, signal);
      expect(result.stdout).toBe("");
      expect(result.signal).toBe(signal);
      expect(await fs.readdir(directory)).toEqual([]);
    }, 60_000);

  it("kill -9 mid-write leaves the temporary file; the next write of that target removes it", async () => {
    const target = path.join(directory, "big.json");
    const result = await interrupted(target, "SIGKILL");
    expect(result.signal).toBe("SIGKILL");
    const [left] = await fs.readdir(directory);
    expect(left).toMatch(/^\.big\.json\.\d+\.[0-9a-f]{12}\.tmp$/);
    // A temporary file of a process that still runs (this one's parent) is kept.
    const alive = path.join(directory, `.big.json.${process.ppid}.0123456789ab.tmp`);
    await fs.writeFile(alive, "in progress");
    await writeFileAtomic(target, "whole");
    expect((await fs.readdir(directory)).sort()).toEqual([path.basename(alive), "big.json"]);
    expect(await fs.readFile(target, "utf8")).toBe("whole");
  }, 60_000);

  it("refuses to replace a FIFO, even with overwrite, and leaves it a FIFO", async () => {
    const fifo = path.join(directory, "pipe");
    await promisify(execFile)("mkfifo", [fifo]);
    for (const overwrite of [false, true]) {
      const error = await writeFileAtomic(fifo, "x", { overwrite }).catch((caught) => caught);
      expect(TxcriptError.isInstance(error) && [error.code, error.message]).toEqual([
        "UNSAFE_PATH",
        "refusing to replace a FIFO, even with --force",
      ]);
    }
    expect((await fs.lstat(fifo)).isFIFO()).toBe(true);
    expect(await fs.readdir(directory)).toEqual(["pipe"]);
  });

  it("refuses a directory as the target, with an IO error", async () => {
    await fs.mkdir(path.join(directory, "dir"));
    const error = await writeFileAtomic(path.join(directory, "dir"), "x", {
      overwrite: true,
    }).catch((caught) => caught);
    expect(TxcriptError.isInstance(error) && error.code).toBe("IO");
  });

  it("writes a target whose name fits NAME_MAX though name and temporary suffix do not", async () => {
    for (const name of [
      `${"n".repeat(250)}.json`,
      `${"é".repeat(123)}.json`,
      `${"😀".repeat(62)}.jsonl`,
    ]) {
      expect(Buffer.byteLength(name)).toBeGreaterThan(233);
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      const target = path.join(directory, name);
      await writeFileAtomic(target, "data");
      await writeFileAtomic(target, "again", { overwrite: true });
      expect(await fs.readFile(target, "utf8")).toBe("again");
    }
    expect(await fs.readdir(directory)).toHaveLength(3);
  });

  it("gives every temporary name at most 255 bytes, distinct for distinct long names", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 300, size: "max" }),
        (base) => {
          const prefix = temporaryPrefix(base);
          expect(Buffer.byteLength(`${prefix}4194304.0123456789ab.tmp`)).toBeLessThanOrEqual(255);
          expect(prefix.startsWith(".")).toBe(true);
          expect(prefix).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
        },
      ),
    );
    expect(temporaryPrefix(`${"a".repeat(240)}1`)).not.toBe(temporaryPrefix(`${"a".repeat(240)}2`));
  });

  it("maps EACCES, EPERM and EROFS to an IO error that names the path", async () => {
    for (const [code, reason] of [
      ["EACCES", "permission denied"],
      ["EPERM", "permission denied"],
      ["EROFS", "read-only file system"],
    ]) {
      vi.spyOn(fs, "mkdir").mockRejectedValueOnce(
        Object.assign(new Error(`${code}: failed, mkdir`), { code }),
      );
      const error = await makeDirectory(path.join(directory, "deny")).catch((caught) => caught);
      expect(
        TxcriptError.isInstance(error) && [error.code, error.message, error.location.file],
      ).toEqual(["IO", `cannot write: ${reason}`, path.join(directory, "deny")]);
    }
  });
});

describe("makeDirectoryInside", () => {
  it("makes the directories under the root and refuses a symbolic link among them", async () => {
    const outside = path.join(directory, "outside");
    const root = path.join(directory, "root");
    await fs.mkdir(outside);
    await fs.mkdir(root);
    expect(await makeDirectoryInside(root, path.join(root, "a", "b"))).toBe(true);
    expect(await makeDirectoryInside(root, path.join(root, "a", "b"))).toBe(false);
    await fs.symlink(outside, path.join(root, "link"));
    for (const inner of [path.join(root, "link"), path.join(root, "link", "deeper")]) {
      const error = await makeDirectoryInside(root, inner).catch((caught) => caught);
      expect(TxcriptError.isInstance(error) && [error.code, error.location.file]).toEqual([
        "UNSAFE_PATH",
        path.join(root, "link"),
      ]);
    }
    await fs.writeFile(path.join(root, "file"), "");
    expect(await codeOf(makeDirectoryInside(root, path.join(root, "file", "x")))).toBe(
      "UNSAFE_PATH",
    );
    expect(await codeOf(makeDirectoryInside(root, path.join(root, "..", "escape")))).toBe(
      "UNSAFE_PATH",
    );
    expect(await fs.readdir(outside)).toEqual([]);
  });
});
