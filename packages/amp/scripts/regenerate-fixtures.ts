// A maintenance tool, not a test: rewrites fixtures/amp/<scenario>.common.json
// from each native fixture through the codec under review. Run it only after
// a deliberate mapping change, then read the diff before committing:
//   pnpm exec tsx --conditions=@txcript/source scripts/regenerate-fixtures.ts
import { readFileSync, writeFileSync } from "node:fs";
import * as path from "node:path";
import { commonCodec } from "@txcript/core";
import { ampCodec } from "../src/amp-codec.js";
import { fixtureNames, fixturesDir } from "../src/test-support.js";

for (const name of fixtureNames()) {
  const file = path.join(fixturesDir, name);
  const transcript = ampCodec.toCommon(ampCodec.parse(readFileSync(file, "utf8"), { file }));
  const target = file.replace(/\.json$/, ".common.json");
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${path.relative(process.cwd(), target)}`);
}
