// Big inputs, generated on the fly and never stored in the repository: an
// Amp thread or Claude Code session of a given size written to a temporary
// file, a stream-json capture of any size produced as a stream, and a runner
// that spawns the built CLI while sampling its resident memory from /proc.
import { spawn } from "node:child_process";
import { createWriteStream, promises as fs, readFileSync } from "node:fs";
import * as path from "node:path";
import type { Readable } from "node:stream";
import { Readable as ReadableStream } from "node:stream";
import { builtBin, type Home } from "./cli.js";
import { fixturesRoot } from "./parsers.js";

const filler =
  'Lorem ipsum dolor sit amet, ünïcödé 😀 "quoted" \\ back-slashed, consectetur adipiscing elit. ';
function paragraph(index: number, bytes: number): string {
  return `#${index} ${filler.repeat(Math.ceil(bytes / filler.length))}`;
}

async function writeLines(
  file: string,
  header: string,
  footer: string,
  bytes: number,
  next: (index: number) => string,
) {
  const stream = createWriteStream(file);
  let failure: Error | undefined;
  stream.on("error", (error) => {
    failure = error;
  });
  let written = 0;
  const put = async (text: string) => {
    if (failure) throw failure;
    written += Buffer.byteLength(text);
    if (!stream.write(text))
      await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
  };
  await put(header);
  for (let index = 0; written < bytes; index += 1) await put(next(index));
  await put(footer);
  await new Promise<void>((resolve, reject) =>
    stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
  );
  return written;
}

/** An Amp thread of about `bytes` bytes (alternating user and assistant text messages). */
export async function writeBigAmpThread(file: string, bytes: number): Promise<number> {
  const document = JSON.parse(
    readFileSync(path.join(fixturesRoot, "amp/export-thread.json"), "utf8"),
  );
  const assistant = document.messages.find(
    (message: { role: string }) => message.role === "assistant",
  );
  document.messages = [];
  const [header, footer] = JSON.stringify(document, null, 2).split('"messages": []') as [
    string,
    string,
  ];
  return writeLines(file, `${header}"messages": [\n`, `\n  ]${footer}`, bytes, (index) => {
    const message =
      index % 2 === 0
        ? {
            role: "user",
            messageId: index,
            content: [{ type: "text", text: paragraph(index, 4000) }],
          }
        : {
            ...assistant,
            messageId: index,
            content: [{ type: "text", text: paragraph(index, 4000) }],
          };
    return `${index === 0 ? "" : ",\n"}${JSON.stringify(message)}`;
  });
}

const streamLines = readFileSync(
  path.join(fixturesRoot, "stream-json/claude-multi-run.jsonl"),
  "utf8",
).split("\n");
const [initLine, userLine, assistantLine] = streamLines as [string, string, string];

function streamPair(index: number): string {
  const user = JSON.parse(userLine);
  user.message.content[0].text = paragraph(index, 2000);
  user.uuid = `0b6a7c1e-2d3f-4a5b-8c9d-${index.toString(16).padStart(12, "0")}`;
  const assistant = JSON.parse(assistantLine);
  assistant.message.id = `msg_${index}`;
  assistant.message.content[0].text = paragraph(index, 2000);
  return `${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`;
}

/** A Claude stream-json capture of about `bytes` bytes, produced as it is read (never held whole). */
export function streamJsonSource(bytes: number): { stream: Readable; produced: () => number } {
  let produced = 0;
  let index = 0;
  const stream = ReadableStream.from(
    (async function* () {
      yield Buffer.from(`${initLine}\n`);
      produced += initLine.length + 1;
      while (produced < bytes) {
        let chunk = "";
        while (chunk.length < 1 << 20) chunk += streamPair(index++);
        produced += Buffer.byteLength(chunk);
        yield Buffer.from(chunk);
      }
    })(),
    { objectMode: false },
  );
  return { stream, produced: () => produced };
}

export interface MeasuredRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdoutBytes: number;
  stdoutLines: number;
  stderr: string;
  /** Peak resident set (VmHWM) in MiB, sampled from /proc every 100 ms. */
  peakMiB: number;
  /** [fraction of input consumed, resident MiB] samples, for flatness. */
  samples: [number, number][];
  seconds: number;
  timedOut: boolean;
}

function memoryOf(pid: number): { rss: number; hwm: number } | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) =>
      Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
    return { rss: field("VmRSS"), hwm: field("VmHWM") };
  } catch {
    return undefined;
  }
}

/** Spawn the built CLI, feed it `stdin` (a stream) if given, and sample its memory until it exits. */
export async function measure(
  home: Home,
  args: string[],
  options: {
    stdin?: { stream: Readable; produced: () => number; total: number };
    timeoutMs: number;
  },
): Promise<MeasuredRun> {
  const bin = await builtBin();
  const started = performance.now();
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: home.work,
    env: home.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdoutBytes = 0;
  let stdoutLines = 0;
  child.stdout.on("data", (chunk: Buffer) => {
    stdoutBytes += chunk.length;
    for (const byte of chunk) if (byte === 10) stdoutLines += 1;
  });
  const stderr: Buffer[] = [];
  child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));
  let peakMiB = 0;
  const samples: [number, number][] = [];
  const sampler = setInterval(() => {
    const memory = child.pid === undefined ? undefined : memoryOf(child.pid);
    if (!memory) return;
    peakMiB = Math.max(peakMiB, memory.hwm);
    const fraction = options.stdin
      ? options.stdin.produced() / options.stdin.total
      : (performance.now() - started) / 1000;
    samples.push([fraction, memory.rss]);
  }, 100);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, options.timeoutMs);
  child.stdin.on("error", () => undefined);
  if (options.stdin) options.stdin.stream.pipe(child.stdin);
  else child.stdin.end();
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (exitCode, exitSignal) => resolve([exitCode, exitSignal])),
  );
  clearInterval(sampler);
  clearTimeout(timer);
  options.stdin?.stream.destroy();
  return {
    code,
    signal,
    stdoutBytes,
    stdoutLines,
    stderr: Buffer.concat(stderr).toString("utf8"),
    peakMiB,
    samples,
    seconds: (performance.now() - started) / 1000,
    timedOut,
  };
}

export async function fileMiB(file: string): Promise<number> {
  return (await fs.stat(file)).size / 2 ** 20;
}
