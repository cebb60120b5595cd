// A maintenance tool, not a test: rewrites fixtures/copilot-cli/<name>.common.json
// from each <name>.jsonl through the codec. Run it after a deliberate change
// to the reading rules, then review the diff by eye:
//   pnpm exec tsx --conditions @txcript/source scripts/regenerate-fixtures.ts
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { commonCodec } from "@txcript/core";
import { copilotCliCodec } from "../src/index.js";

const directory = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../fixtures/copilot-cli",
);
for (const name of readdirSync(directory).sort()) {
  if (!name.endsWith(".jsonl")) continue;
  const text = readFileSync(path.join(directory, name), "utf8");
  const transcript = copilotCliCodec.toCommon(copilotCliCodec.parse(text));
  const target = path.join(directory, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
