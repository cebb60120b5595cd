// A maintenance tool, not a test: rewrites fixtures/claude-code/<name>.common.json
// from each <name>.jsonl through the codec, and store/<id>.common.json from
// each session under store/ (loaded with its subagent files). Run it after a
// deliberate change to the reading rules, then review the diff by eye before
// committing:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec, type Transcript } from "@txcript/core";
import { ClaudeCodeStore, claudeCodeCodec } from "../src/index.js";

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/claude-code",
);
function write(target: string, transcript: Transcript): void {
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
for (const name of readdirSync(directory)
  .filter((entry) => entry.endsWith(".jsonl"))
  .sort()) {
  const text = readFileSync(path.join(directory, name), "utf8");
  write(
    path.join(directory, name.replace(/\.jsonl$/, ".common.json")),
    claudeCodeCodec.toCommon(claudeCodeCodec.parse(text)),
  );
}
const store = new ClaudeCodeStore({ root: path.join(directory, "store") });
for await (const session of store.discover())
  write(
    path.join(store.root, `${session.id}.common.json`),
    claudeCodeCodec.toCommon(await store.load(session.id)),
  );
