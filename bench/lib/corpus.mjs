// Generates the seeded corpora under bench/.corpus/ (gitignored) on demand:
// Amp threads of 1, 10 and 100 MB with stream-json captures of the same
// conversations, and two threads directories of 2,000 threads (about 250 KB
// and 2 KB each). A manifest records the generator version, so a second run
// reuses the files and a changed generator rebuilds them.
import { createWriteStream, existsSync, promises as fs } from "node:fs";
import * as path from "node:path";
import { generateConversation } from "./conversation.mjs";
import { seeded } from "./random.mjs";
import { ampMessageSize, streamJsonLines, writeAmpThread } from "./writers.mjs";

const generatorVersion = 4;

export const sizes = [
  { label: "1 MB", name: "1mb", bytes: 1_000_000, seed: 1001 },
  { label: "10 MB", name: "10mb", bytes: 10_000_000, seed: 1002 },
  { label: "100 MB", name: "100mb", bytes: 100_000_000, seed: 1003 },
];

export const directories = [
  {
    name: "threads-250k",
    label: "2,000 × ~250 KB",
    count: 2000,
    min: 50_000,
    max: 450_000,
    seed: 20_000,
  },
  { name: "threads-2k", label: "2,000 × 2 KB", count: 2000, min: 2048, max: 2048, seed: 40_000 },
];

/** Where a threads directory keeps its files: `<dir>/amp/threads` (XDG_DATA_HOME layout). */
export function threadsDir(corpus, name) {
  return path.join(corpus, name, "amp", "threads");
}

async function writeStreamJsonFile(file, conversation) {
  const out = createWriteStream(file);
  for (const line of streamJsonLines(conversation)) {
    if (!out.write(`${line}\n`)) await new Promise((resolve) => out.once("drain", resolve));
  }
  await new Promise((resolve, reject) => out.end((error) => (error ? reject(error) : resolve())));
}

export async function ensureCorpus(corpus, log) {
  const manifestFile = path.join(corpus, "manifest.json");
  const wanted = { generatorVersion, sizes, directories };
  if (existsSync(manifestFile)) {
    const manifest = JSON.parse(await fs.readFile(manifestFile, "utf8"));
    if (JSON.stringify(manifest.wanted) === JSON.stringify(wanted)) return manifest;
  }
  // Only this corpus's own files go: other suites keep theirs beside it
  // (search/, codex-list/, streaming/).
  await fs.mkdir(corpus, { recursive: true });
  for (const entry of await fs.readdir(corpus))
    if (
      entry === "manifest.json" ||
      /^(amp|stream)-.*\.(json|jsonl)$/.test(entry) ||
      directories.some((directory) => directory.name === entry)
    )
      await fs.rm(path.join(corpus, entry), { recursive: true, force: true });
  const started = performance.now();
  const files = {};
  for (const size of sizes) {
    log(`corpus: generating the ${size.label} thread and its stream-json capture`);
    const conversation = generateConversation(size.seed, size.bytes, ampMessageSize);
    const amp = path.join(corpus, `amp-${size.name}.json`);
    const stream = path.join(corpus, `stream-${size.name}.jsonl`);
    await fs.writeFile(amp, writeAmpThread(conversation));
    await writeStreamJsonFile(stream, conversation);
    files[size.name] = {
      amp,
      stream,
      messages: conversation.messages.length,
      created: conversation.created,
      ampBytes: (await fs.stat(amp)).size,
      streamBytes: (await fs.stat(stream)).size,
    };
  }
  const small = generateConversation(7, 2048, ampMessageSize);
  files.small = {
    amp: path.join(corpus, "amp-small.json"),
    stream: path.join(corpus, "stream-small.jsonl"),
    id: small.id,
    created: small.created,
  };
  await fs.writeFile(files.small.amp, writeAmpThread(small));
  await writeStreamJsonFile(files.small.stream, small);
  const dirs = {};
  for (const directory of directories) {
    log(`corpus: generating ${directory.label} threads`);
    const dir = threadsDir(corpus, directory.name);
    await fs.mkdir(dir, { recursive: true });
    const random = seeded(directory.seed);
    let total = 0;
    for (let index = 0; index < directory.count; index++) {
      const target = random.int(directory.min, directory.max);
      const conversation = generateConversation(directory.seed + 1 + index, target, ampMessageSize);
      const text = writeAmpThread(conversation);
      total += Buffer.byteLength(text);
      await fs.writeFile(path.join(dir, `${conversation.id}.json`), text);
    }
    dirs[directory.name] = {
      dir,
      root: path.join(corpus, directory.name),
      count: directory.count,
      bytes: total,
    };
  }
  const manifest = {
    wanted,
    files,
    dirs,
    generatedInSeconds: Math.round((performance.now() - started) / 100) / 10,
  };
  await fs.writeFile(manifestFile, JSON.stringify(manifest, null, 2));
  return manifest;
}
