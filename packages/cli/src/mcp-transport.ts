// The stdio transport of `txcript mcp`: one JSON-RPC message a line, as the
// MCP stdio transport says, read with bounds. The SDK's own
// StdioServerTransport buffers a line of any length (past 10 MiB it throws
// and the server dies) and answers nothing to a line that is not JSON, a
// batch or a malformed message. Here every such line gets its JSON-RPC
// error, and the server keeps serving:
//
// - not JSON: -32700 Parse error (id null);
// - a batch (an array): -32600 Invalid Request (id null): MCP's stdio
//   transport carries one message a line, and the protocol version the SDK
//   speaks (2025-06-18 on) has no batches;
// - JSON that is not a JSON-RPC message: -32600 Invalid Request, with the
//   request's id when it has a usable one, else null;
// - a line past `maxRequestLineBytes`: -32600 (id null); the rest of that
//   line is skipped unread, never buffered.
//
// Unknown methods are the SDK's: -32601 Method not found.
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { type JSONRPCMessage, JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";

/** The longest request line read (bytes); a tool call's arguments are far shorter. */
export const maxRequestLineBytes = 1 << 20;

const newline = 0x0a;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  readonly #input: Readable;
  readonly #output: Writable;
  readonly #limit: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Inside a line past the limit: its bytes are dropped until its newline. */
  #skipping = false;
  #closed = false;

  constructor(input: Readable, output: Writable, limit = maxRequestLineBytes) {
    this.#input = input;
    this.#output = output;
    this.#limit = limit;
  }

  async start(): Promise<void> {
    this.#input.on("data", this.#onData);
    this.#input.on("error", this.#onError);
    this.#input.once("end", this.#onEnd);
  }

  readonly #onError = (error: Error) => this.onerror?.(error);

  readonly #onEnd = () => {
    // A last line without a newline is still a message.
    if (!this.#skipping && this.#pendingBytes > 0) this.#line(Buffer.concat(this.#pending));
    this.#pending = [];
    this.#pendingBytes = 0;
    void this.close();
  };

  readonly #onData = (chunk: Buffer | string) => {
    let data = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    for (;;) {
      const end = data.indexOf(newline);
      const piece = end === -1 ? data : data.subarray(0, end);
      if (!this.#skipping) {
        if (this.#pendingBytes + piece.length > this.#limit) {
          this.#skipping = true;
          this.#pending = [];
          this.#pendingBytes = 0;
          this.#reject(
            null,
            -32600,
            `Invalid Request: a request line is limited to ${this.#limit} bytes; this one was skipped`,
          );
        } else {
          this.#pending.push(piece);
          this.#pendingBytes += piece.length;
        }
      }
      if (end === -1) return;
      if (!this.#skipping) this.#line(Buffer.concat(this.#pending));
      this.#skipping = false;
      this.#pending = [];
      this.#pendingBytes = 0;
      data = data.subarray(end + 1);
    }
  };

  #line(bytes: Buffer): void {
    const text = bytes.toString("utf8").replace(/\r$/, "");
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#reject(null, -32700, "Parse error: the line is not JSON");
      return;
    }
    if (Array.isArray(value)) {
      this.#reject(
        null,
        -32600,
        "Invalid Request: batches are not supported; send one JSON-RPC message a line",
      );
      return;
    }
    const parsed = JSONRPCMessageSchema.safeParse(value);
    if (!parsed.success) {
      const id = (value as { id?: unknown } | null)?.id;
      this.#reject(
        typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null,
        -32600,
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response",
      );
      return;
    }
    this.onmessage?.(parsed.data);
  }

  #reject(id: string | number | null, code: number, message: string): void {
    void this.#write({ jsonrpc: "2.0", id, error: { code, message } }).catch((error: unknown) =>
      this.onerror?.(error as Error),
    );
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.#write(message);
  }

  #write(message: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#closed) {
        resolve();
        return;
      }
      const ready = this.#output.write(`${JSON.stringify(message)}\n`, (error) => {
        if (error) reject(error);
      });
      if (ready) resolve();
      else this.#output.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#input.off("data", this.#onData);
    this.#input.off("error", this.#onError);
    this.#input.off("end", this.#onEnd);
    this.onclose?.();
  }
}
