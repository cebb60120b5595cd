// `txcript schema`: the JSON Schema of the Common document, generated from
// core's zod schemas at run time (the same function docs/schema/ comes from).
import { commonJsonSchema } from "@txcript/core";
import { type Io, write } from "../io.js";

export async function schemaCommand(io: Io): Promise<number> {
  await write(io.stdout, `${JSON.stringify(commonJsonSchema(), null, 2)}\n`);
  return 0;
}
