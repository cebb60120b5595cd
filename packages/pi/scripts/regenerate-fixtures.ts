// A maintenance tool, not a test: rewrites fixtures/pi/<name>.common.json
// from each <name>.jsonl through the codec. Run it after a deliberate change
// to the reading rules, then review the diff by eye before committing:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { piCodec } from "../src/index.js";

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/pi",
);
for (const name of readdirSync(directory)
  .filter((entry) => entry.endsWith(".jsonl"))
  .sort()) {
  const transcript = piCodec.toCommon(
    piCodec.parse(readFileSync(path.join(directory, name), "utf8")),
  );
  const target = path.join(directory, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
