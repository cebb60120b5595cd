// Pass one of the streaming reader, in compact form: per line a few int32
// (its uuid, the parent it links to, its message id, its kind) and the ids
// of the tool calls it makes or answers, every string kept once
// (StringIds), so a 2 GB session of half a million lines takes tens of MB.
// `select` is selectConversations / selectChain (claude-code-thread.ts) for
// the main conversation, step for step over those columns: the streaming
// law (claude-code-stream.test.ts) holds it to the same lines. Inline
// sidechain lines (1.0.x, and txcript's own writing) are left to the
// caller, which holds them and picks their chains with the whole path's
// selectSidechains (`select`'s `sidechains` argument).

import type { LossTally } from "@txcript/core";
import { IntColumn, isJsonObject, type JsonObject, ownValue, StringIds } from "@txcript/core";
import { objectAt, stringAt } from "./claude-code-schema.js";
import type { IndexedLine } from "./claude-code-thread.js";
import { tallyLeftOutLines } from "./claude-code-to-common.js";
import { importNotice } from "./claude-code-written.js";

const none = -1;
const typeCodes: Record<string, number> = { user: 1, assistant: 2, system: 3 };

/** What tallyLeftOutLines reads of a line, one value per distinct kind. */
interface Kind {
  value: JsonObject;
}

export class CompactLines {
  readonly uuids = new StringIds();
  readonly messageIds = new StringIds();
  readonly toolIds = new StringIds();
  readonly #kinds = new StringIds();
  readonly #kindValues: Kind[] = [];
  /** Per line with a value (by position among them): */
  readonly #line = new IntColumn();
  readonly #uuid = new IntColumn();
  readonly #link = new IntColumn();
  readonly #message = new IntColumn();
  readonly #kind = new IntColumn();
  readonly #type = new IntColumn();
  /** 1: a sidechain line with a uuid. */
  readonly #sidechain = new IntColumn();
  /** The tool ids each line calls (assistant) or answers (user): #tools[#toolStart[k] .. #toolStart[k+1]). */
  readonly #toolStart = new IntColumn();
  readonly #tools = new IntColumn();
  /** Whether a line with a uuid is a sidechain line. */
  sidechains = false;

  get count(): number {
    return this.#line.length;
  }

  add(index: number, value: JsonObject): void {
    const type = stringAt(value, "type");
    const subtype = stringAt(value, "subtype");
    const content = stringAt(value, "content");
    const notice = content === importNotice;
    const kindKey = `${type === undefined ? "\u0000" : type}\u0001${subtype === undefined ? "\u0000" : subtype}\u0001${notice ? 1 : 0}`;
    const kind = this.#kinds.id(kindKey);
    if (kind === this.#kindValues.length) {
      const kindValue: JsonObject = {};
      if (type !== undefined) kindValue.type = type;
      if (subtype !== undefined) kindValue.subtype = subtype;
      if (notice) kindValue.content = importNotice;
      this.#kindValues.push({ value: kindValue });
    }
    const uuid = stringAt(value, "uuid");
    const sidechain = uuid !== undefined && ownValue(value, "isSidechain") === true;
    if (sidechain) this.sidechains = true;
    this.#sidechain.push(sidechain ? 1 : 0);
    const parent = ownValue(value, "parentUuid");
    const link = typeof parent === "string" ? parent : stringAt(value, "logicalParentUuid");
    const message = objectAt(value, "message");
    const messageId = message === undefined ? undefined : stringAt(message, "id");
    this.#line.push(index);
    this.#uuid.push(uuid === undefined ? none : this.uuids.id(uuid));
    this.#link.push(link === undefined ? none : this.uuids.id(link));
    this.#message.push(messageId === undefined ? none : this.messageIds.id(messageId));
    this.#kind.push(kind);
    this.#type.push(type === undefined ? 0 : (typeCodes[type] ?? 0));
    this.#toolStart.push(this.#tools.length);
    const blocks = message === undefined ? undefined : ownValue(message, "content");
    if (Array.isArray(blocks))
      for (const block of blocks) {
        if (!isJsonObject(block)) continue;
        if (type === "assistant" && ownValue(block, "type") === "tool_use") {
          const call = ownValue(block, "id");
          if (typeof call === "string") this.#tools.push(this.toolIds.id(call));
        } else if (type === "user") {
          const answered = stringAt(block, "tool_use_id");
          if (answered !== undefined) this.#tools.push(this.toolIds.id(answered));
        }
      }
  }

  #toolsOf(k: number): [number, number] {
    const end = k + 1 < this.#toolStart.length ? this.#toolStart.at(k + 1) : this.#tools.length;
    return [this.#toolStart.at(k), end];
  }

  /**
   * The main conversation as selectConversations picks it: which lines
   * (file indices, in order), and the losses of pass one tallied as
   * claudeCodeToCommon tallies them. When the file has main lines and
   * sidechain lines, `sidechains` is given the sidechain lines that count
   * (each uuid once; file indices, in order) and answers which of them its
   * chains use and how many it left on abandoned branches.
   */
  select(
    tally: LossTally,
    sidechains?: (lines: readonly number[]) => { used: ReadonlySet<number>; branches: number },
  ): {
    lines: number[];
    /** By message id (messageIds): the file index of the last chosen assistant line with it. */
    lastOfMessage: Int32Array;
    duplicates: number;
    branches: number;
    hasUuid: (text: string) => boolean;
  } {
    const count = this.count;
    const byUuid = new Int32Array(this.uuids.size).fill(none);
    const unique = new Uint8Array(count);
    let duplicates = 0;
    // The unique lines with a uuid, main and sidechain, in order.
    let mainCount = 0;
    const sideUnique: number[] = [];
    for (let k = 0; k < count; k += 1) {
      const uuid = this.#uuid.at(k);
      if (uuid !== none) {
        if (byUuid[uuid] !== none) {
          duplicates += 1;
          continue;
        }
        byUuid[uuid] = k;
        if (this.#sidechain.at(k) === 1) sideUnique.push(k);
        else mainCount += 1;
      }
      unique[k] = 1;
    }
    // A file of sidechain lines only (a subagent file read on its own) is its own main conversation.
    const split = mainCount > 0 && sideUnique.length > 0;
    // side: the main conversation's candidates, in order.
    const side = new IntColumn();
    const position = new Int32Array(count).fill(none);
    for (let k = 0; k < count; k += 1)
      if (unique[k] === 1 && this.#uuid.at(k) !== none && !(split && this.#sidechain.at(k) === 1)) {
        position[k] = side.length;
        side.push(k);
      }
    const included = new Uint8Array(count);
    if (side.length > 0) {
      // The leaf: the last message or system line, else the last line.
      let current = none;
      for (let s = side.length - 1; s >= 0; s -= 1)
        if (this.#type.at(side.at(s)) !== 0) {
          current = side.at(s);
          break;
        }
      if (current === none) current = side.at(side.length - 1);
      const chain = new Uint8Array(count);
      while (current !== none && chain[current] === 0) {
        chain[current] = 1;
        const link = this.#link.at(current);
        let next = none;
        if (link !== none) {
          next = byUuid[link] as number;
          if (next === none || position[next] === none) {
            const at = position[current] as number;
            next = at > 0 ? side.at(at - 1) : none;
          }
        }
        current = next;
      }
      const chainMessages = new Uint8Array(this.messageIds.size);
      for (let s = 0; s < side.length; s += 1) {
        const k = side.at(s);
        included[k] = chain[k] as number;
        const message = this.#message.at(k);
        if (chain[k] === 1 && this.#type.at(k) === 2 && message !== none)
          chainMessages[message] = 1;
      }
      for (let s = 0; s < side.length; s += 1) {
        const k = side.at(s);
        const message = this.#message.at(k);
        if (this.#type.at(k) === 2 && message !== none && chainMessages[message] === 1)
          included[k] = 1;
      }
      const calls = new Uint8Array(this.toolIds.size);
      for (let s = 0; s < side.length; s += 1) {
        const k = side.at(s);
        if (included[k] !== 1 || this.#type.at(k) !== 2) continue;
        const [from, to] = this.#toolsOf(k);
        for (let t = from; t < to; t += 1) calls[this.#tools.at(t)] = 1;
      }
      for (let s = 0; s < side.length; s += 1) {
        const k = side.at(s);
        if (included[k] === 1 || this.#type.at(k) !== 1) continue;
        const [from, to] = this.#toolsOf(k);
        for (let t = from; t < to; t += 1)
          if (calls[this.#tools.at(t)] === 1) {
            included[k] = 1;
            break;
          }
      }
    }
    let branches = 0;
    const lines: number[] = [];
    for (let s = 0; s < side.length; s += 1) {
      const k = side.at(s);
      if (included[k] === 1) lines.push(this.#line.at(k));
      else if (this.#type.at(k) === 1 || this.#type.at(k) === 2) branches += 1;
    }
    const lastOfMessage = new Int32Array(this.messageIds.size).fill(none);
    for (let s = 0; s < side.length; s += 1) {
      const k = side.at(s);
      if (included[k] === 1 && this.#type.at(k) === 2 && this.#message.at(k) !== none)
        lastOfMessage[this.#message.at(k)] = this.#line.at(k);
    }
    if (split && sidechains !== undefined) {
      const read = sidechains(sideUnique.map((k) => this.#line.at(k)));
      for (const k of sideUnique) if (read.used.has(this.#line.at(k))) included[k] = 1;
      branches += read.branches;
    }
    // The left-out lines' tally, line by line through the whole path's own function.
    const used: IndexedLine[] = [];
    const unused: IndexedLine[] = [];
    for (const [kind, { value }] of this.#kindValues.entries()) {
      used[kind] = { index: 0, value };
      unused[kind] = { index: 0, value };
    }
    const usedSet = new Set(used);
    for (let k = 0; k < count; k += 1) {
      if (unique[k] !== 1) continue;
      const kind = this.#kind.at(k);
      tallyLeftOutLines([(included[k] === 1 ? used : unused)[kind] as IndexedLine], usedSet, tally);
    }
    return {
      lines,
      lastOfMessage,
      duplicates,
      branches,
      hasUuid: (text) => {
        const id = this.uuids.find(text);
        return id !== none && byUuid[id] !== none;
      },
    };
  }
}
