// A maintenance tool, not a test: rewrites fixtures/stream-json/*.common.json
// from the hand-written captures beside them. Run
// `pnpm --filter @txcript/stream-json fixtures:write`, then read the diff:
// src/fixtures.test.ts fails while a checked-in copy is stale.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { commonCodec } from "@txcript/core";
import { fixtureReadOptions, fixturesDirectory } from "../src/fixtures-support.js";
import { streamJsonCodec } from "../src/index.js";

for (const name of readdirSync(fixturesDirectory).filter((file) => file.endsWith(".jsonl"))) {
  const text = readFileSync(path.join(fixturesDirectory, name), "utf8");
  const transcript = streamJsonCodec.toCommon(streamJsonCodec.parse(text), fixtureReadOptions);
  const target = path.join(fixturesDirectory, name.replace(/\.jsonl$/, ".common.json"));
  writeFileSync(target, commonCodec.serialize(commonCodec.fromCommon(transcript)));
  console.log(`wrote ${target}`);
}
