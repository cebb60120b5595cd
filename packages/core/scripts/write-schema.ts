// A maintenance tool, not a test: regenerates docs/schema/common-v2.schema.json
// from the zod schemas. Run `pnpm --filter @txcript/core schema:write`;
// src/json-schema.test.ts fails while the checked-in copy is stale.
import { writeFileSync } from "node:fs";
import { commonJsonSchema } from "../src/json-schema.js";

const target = new URL("../../../docs/schema/common-v2.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(commonJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
