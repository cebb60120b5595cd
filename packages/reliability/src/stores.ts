// The stores under fault, behind one shape: how to build each over a root,
// a sample session of each (with a payload that tells two writers apart),
// and how to run store operations in a separate Node process, optionally as
// another user (tests run as root here, and root ignores file modes).
import { execFile, execFileSync } from "node:child_process";
import { constants, promises as fs, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { AmpStore, ampCodec } from "@txcript/amp";
import { ClaudeCodeStore, claudeCodeCodec } from "@txcript/claude-code";
import { type Store, TxcriptError } from "@txcript/core";
import { fixturesRoot, repoRoot } from "./parsers.js";

export interface StoreUnderFault {
  harness: "amp" | "claude_code";
  // biome-ignore lint/suspicious/noExplicitAny: stores of any native body
  make(root: string): Store<any>;
  /** A session's native text whose prompt carries `payload`; the same id every time. */
  sampleText(payload: string): string;
  parse(text: string): unknown;
  /** An id that names nothing in the store but is well-formed. */
  absentId: string;
  /** The constructor expression a child process evaluates, given `m` (the package) and `root`. */
  childStore: string;
  packageEntry: string;
}

const ampText = readFileSync(path.join(fixturesRoot, "amp/export-thread.json"), "utf8");
const claudeText = readFileSync(
  path.join(fixturesRoot, "claude-code/split-messages.jsonl"),
  "utf8",
);

export const storesUnderFault: StoreUnderFault[] = [
  {
    harness: "amp",
    make: (root) => new AmpStore({ root }),
    sampleText: (payload) =>
      ampText.replace(/"title": "[^"]*"/, `"title": ${JSON.stringify(payload)}`),
    parse: (text) => ampCodec.parse(text),
    absentId: "T-019f0000-1111-7222-8333-000000000000",
    childStore: "new m.AmpStore({ root })",
    packageEntry: path.join(repoRoot, "packages/amp/src/index.ts"),
  },
  {
    harness: "claude_code",
    make: (root) => new ClaudeCodeStore({ root }),
    sampleText: (payload) =>
      claudeText.replace(
        '"content":"list the files and count the lines of README.md"',
        `"content":${JSON.stringify(payload)}`,
      ),
    parse: (text) => claudeCodeCodec.parse(text),
    absentId: "5e551011-0000-4000-8000-00000000dead",
    childStore: "new m.ClaudeCodeStore({ root })",
    packageEntry: path.join(repoRoot, "packages/claude-code/src/index.ts"),
  },
];

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

export interface ChildResult {
  /** The child's last stdout line: "ok" or a TxcriptError code, or "escaped: <name>: <message>". */
  outcome: string;
  stdout: string;
  stderr: string;
}

/**
 * Run `body` (an async function body with `store`, `root`, `arg`, `fs` in
 * scope) in a fresh Node process over the store's TypeScript source.
 * `asUser` runs it as uid/gid 65534 (nobody) so file modes apply.
 */
export function inChild(
  subject: StoreUnderFault,
  root: string,
  body: string,
  options: { arg?: string; asUser?: boolean } = {},
): Promise<ChildResult> {
  const script = `
    const m = await import(${JSON.stringify(pathToFileURL(subject.packageEntry).href)});
    const fs = await import("node:fs");
    const root = ${JSON.stringify(root)};
    const arg = process.argv[1];
    const store = ${subject.childStore};
    try {
      await (async () => { ${body} })();
      console.log("ok");
    } catch (error) {
      const marked = typeof error === "object" && error !== null && error[Symbol.for("txcript.error")] === true;
      console.log(marked ? error.code + " " + JSON.stringify(error.message) : "escaped: " + (error && error.name) + ": " + (error && error.message));
    }`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        "--conditions=@txcript/source",
        "--import",
        tsxLoader,
        "--input-type=module",
        "-e",
        script,
        options.arg ?? "",
      ],
      {
        cwd: repoRoot,
        timeout: 60_000,
        maxBuffer: 16 * 1024 * 1024,
        ...(options.asUser ? { uid: 65534, gid: 65534 } : {}),
      },
      (error, stdout, stderr) => {
        const lines = stdout.trim().split("\n");
        resolve({
          outcome:
            error && !stdout ? `spawn failed: ${error.message}` : (lines[lines.length - 1] ?? ""),
          stdout,
          stderr,
        });
      },
    );
  });
}

/**
 * Replace a saved session's file by a FIFO, then discover and load with a
 * 3-second limit each. A reader blocked in open(2) is released afterwards
 * (a writer opens and closes the FIFO) so a hang cannot outlive the test.
 */
export async function fifoProbe(
  // biome-ignore lint/suspicious/noExplicitAny: stores of any native body
  store: Store<any>,
  id: string,
  file: string,
): Promise<{ discovered: string; loaded: string }> {
  await fs.unlink(file);
  execFileSync("mkfifo", [file]);
  const timeout = (label: string) =>
    new Promise<string>((resolve) => setTimeout(() => resolve(`${label} hung`), 3000));
  const discovered = await Promise.race([
    (async () => {
      let count = 0;
      for await (const _ of store.discover()) count += 1;
      return `discovered ${count}`;
    })(),
    timeout("discover"),
  ]);
  const loaded = await Promise.race([
    store.load(id).then(
      () => "loaded",
      (error: unknown) =>
        TxcriptError.isInstance(error) ? `refused ${error.code}` : `escaped ${String(error)}`,
    ),
    timeout("load"),
  ]);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const writer = await fs
      .open(file, constants.O_WRONLY | constants.O_NONBLOCK)
      .catch(() => undefined);
    await writer?.close();
  }
  return { discovered, loaded };
}
