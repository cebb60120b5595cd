// A maintenance tool, not a test: regenerates docs/schema/cli-result.schema.json
// from the zod schema in src/result-schema.ts (a test checks it is current).
import { writeFileSync } from "node:fs";
import { resultJsonSchema } from "../src/result-schema.js";

const target = new URL("../../../docs/schema/cli-result.schema.json", import.meta.url);
writeFileSync(target, `${JSON.stringify(resultJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
