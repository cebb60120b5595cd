// A maintenance tool, not a test: rewrites fixtures/kimi-cli/<name>.common.json
// from each loose <name>.jsonl (read alone), and store/<id>.common.json from
// each session the store under store/ lists (loaded with its directory).
// Run it after a deliberate change to the reading rules, then review the
// diff by eye:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { KimiCliStore, kimiCliCodec } from "../src/index.js";

const root = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/kimi-cli/store",
);
const loose = path.dirname(root);
for (const name of readdirSync(loose).filter((entry) => entry.endsWith(".jsonl"))) {
  const transcript = kimiCliCodec.toCommon(
    kimiCliCodec.parse(readFileSync(path.join(loose, name), "utf8")),
  );
  const target = path.join(loose, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
const store = new KimiCliStore({ root });
for await (const found of store.discover()) {
  const transcript = kimiCliCodec.toCommon(await store.load(found.id));
  const target = path.join(root, `${found.id}.common.json`);
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
