// The protobuf wire format, read without a schema: the root node of a
// Cursor CLI chat's blob tree is a protobuf message (agent.v1
// ConversationStateStructure) whose .proto Cursor has not published, so it
// is read field by field. Bounded and total: bad bytes are a TxcriptError.
import { TxcriptError } from "@txcript/core";
import { harness } from "./cursor-cli-schema.js";

/** One field as it appears on the wire: a varint, or length-delimited bytes, or a fixed-width value. */
export type WireField =
  | { field: number; wire: 0; value: number }
  | { field: number; wire: 2; bytes: Uint8Array }
  | { field: number; wire: 1 | 5 };

function corrupt(what: string, offset: number, where: string): TxcriptError {
  return new TxcriptError(
    "INVALID_DOCUMENT",
    `${where} is not a protobuf message: ${what} at byte ${offset}`,
    {
      harness,
      location: { path: where },
      hint: "a Cursor CLI tree node is protobuf; the store may be damaged",
    },
  );
}

/** The fields of one protobuf message, in wire order. */
export function decodeWire(data: Uint8Array, where: string): WireField[] {
  const fields: WireField[] = [];
  let offset = 0;
  const varint = (): number => {
    let result = 0;
    for (let shift = 0; shift < 70; shift += 7) {
      const byte = data[offset];
      if (byte === undefined) throw corrupt("a varint runs past the end", offset, where);
      offset += 1;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
    }
    throw corrupt("a varint longer than ten bytes", offset, where);
  };
  while (offset < data.length) {
    const start = offset;
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw corrupt("field number 0", start, where);
    if (wire === 0) fields.push({ field, wire, value: varint() });
    else if (wire === 2) {
      const length = varint();
      if (length > data.length - offset) throw corrupt("a length runs past the end", start, where);
      fields.push({ field, wire, bytes: data.subarray(offset, offset + length) });
      offset += length;
    } else if (wire === 1 || wire === 5) {
      const width = wire === 1 ? 8 : 4;
      if (width > data.length - offset)
        throw corrupt("a fixed value runs past the end", start, where);
      fields.push({ field, wire });
      offset += width;
    } else throw corrupt(`wire type ${wire}`, start, where);
  }
  return fields;
}

/** Length-delimited fields encoded, for writing nodes (fixtures, the document's ids). */
export function encodeBytesField(field: number, bytes: Uint8Array): Uint8Array {
  const head: number[] = [];
  for (let value = field * 8 + 2; ; value = Math.floor(value / 128)) {
    if (value < 128) {
      head.push(value);
      break;
    }
    head.push((value % 128) | 0x80);
  }
  for (let value = bytes.length; ; value = Math.floor(value / 128)) {
    if (value < 128) {
      head.push(value);
      break;
    }
    head.push((value % 128) | 0x80);
  }
  const out = new Uint8Array(head.length + bytes.length);
  out.set(head, 0);
  out.set(bytes, head.length);
  return out;
}
