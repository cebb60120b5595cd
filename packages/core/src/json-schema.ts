// The JSON Schema of the Common document, generated from the zod schemas
// (never written by hand). docs/schema/ holds the checked-in copy; a test
// keeps it current.
import * as z from "zod";
import { CommonDocument } from "./common-codec.js";

export function commonJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(CommonDocument, { target: "draft-2020-12", unrepresentable: "any" }),
    $id: "https://txcript.dev/schema/common-v2.schema.json",
    title: "txcript Common document v2",
  };
}
