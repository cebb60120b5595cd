// A maintenance tool, not a test: rewrites fixtures/qwen-code/<name>.common.json
// from each loose <name>.jsonl, eras/<name>.common.json from each
// eras/<name>.jsonl (the recordings of older releases), and store/<id>.common.json from each session
// the store under store/ lists. Run it after a deliberate
// change to the reading rules, then review the diff by eye:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { QwenCodeStore, qwenCodeCodec } from "../src/index.js";

const root = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/qwen-code/store",
);
const loose = path.dirname(root);
for (const name of readdirSync(loose).filter((entry) => entry.endsWith(".jsonl"))) {
  const transcript = qwenCodeCodec.toCommon(
    qwenCodeCodec.parse(readFileSync(path.join(loose, name), "utf8")),
  );
  const target = path.join(loose, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
const eras = path.join(loose, "eras");
for (const name of readdirSync(eras).filter((entry) => entry.endsWith(".jsonl"))) {
  const transcript = qwenCodeCodec.toCommon(
    qwenCodeCodec.parse(readFileSync(path.join(eras, name), "utf8")),
  );
  const target = path.join(eras, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
const store = new QwenCodeStore({ root });
for await (const found of store.discover()) {
  const transcript = qwenCodeCodec.toCommon(await store.load(found.id));
  const target = path.join(root, `${found.id}.common.json`);
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
