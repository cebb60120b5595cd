// A maintenance tool, not a test: rewrites fixtures/gemini-cli/<name>.common.json
// from each <name>.json / <name>.jsonl through the codec, and
// store/<id>.common.json from each session the store under store/ lists
// (loaded with its subagent recordings and project directory). Run it after
// a deliberate change to the reading rules, then review the diff by eye:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { GeminiCliStore, geminiCliCodec } from "../src/index.js";

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/gemini-cli",
);
function write(target: string, transcript: Transcript): void {
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
for (const name of readdirSync(directory)
  .filter((entry) => /\.jsonl?$/.test(entry) && !entry.endsWith(".common.json"))
  .sort()) {
  const text = readFileSync(path.join(directory, name), "utf8");
  write(
    path.join(directory, name.replace(/\.jsonl?$/, ".common.json")),
    geminiCliCodec.toCommon(geminiCliCodec.parse(text)),
  );
}
const store = new GeminiCliStore({ root: path.join(directory, "store") });
for await (const session of store.discover())
  write(
    path.join(store.root, `${session.id}.common.json`),
    geminiCliCodec.toCommon(await store.load(session.id)),
  );
