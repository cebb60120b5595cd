// Compact storage for a streaming reader's first pass over a file of a
// million lines: strings kept once as small integers (a Map of a million
// uuid strings costs ~85 MB; this costs their UTF-16 code units and two
// int32 per string), and growable int32 columns.

/** Strings numbered 0, 1, 2, … in the order first seen; `id` adds, `find` only looks. */
export class StringIds {
  #units: Uint16Array<ArrayBuffer>;
  #used = 0;
  #starts: Int32Array<ArrayBuffer>;
  #lengths: Int32Array<ArrayBuffer>;
  /** Each string's hash, kept: a probe compares it before the characters, and a rehash reads it. */
  #hashes: Int32Array<ArrayBuffer>;
  #count = 0;
  /** Open addressing: id + 1, 0 for an empty slot. */
  #table: Int32Array<ArrayBuffer>;

  /** `expected`: about how many strings will be added (the table is sized for them at once). */
  constructor(expected = 1 << 10) {
    const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, expected))));
    this.#starts = new Int32Array(capacity);
    this.#lengths = new Int32Array(capacity);
    this.#hashes = new Int32Array(capacity);
    this.#table = new Int32Array(capacity * 2);
    this.#units = new Uint16Array(capacity * 64);
  }

  get size(): number {
    return this.#count;
  }

  /**
   * FNV-1a over the characters two at a time (one multiply per pair), then
   * murmur3's finalizer, so the low bits a table masks depend on every
   * character. Exported for its test.
   */
  static hash(text: string): number {
    const length = text.length;
    let hash = 0x811c9dc5 ^ length;
    let index = 0;
    for (; index + 1 < length; index += 2)
      hash = Math.imul(
        hash ^ (text.charCodeAt(index) | (text.charCodeAt(index + 1) << 16)),
        0x01000193,
      );
    if (index < length) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
    hash ^= hash >>> 16;
    hash = Math.imul(hash, 0x85ebca6b);
    hash ^= hash >>> 13;
    hash = Math.imul(hash, 0xc2b2ae35);
    return hash ^ (hash >>> 16);
  }

  #equals(id: number, text: string): boolean {
    const length = this.#lengths[id] as number;
    if (length !== text.length) return false;
    const start = this.#starts[id] as number;
    const units = this.#units;
    for (let index = 0; index < length; index += 1)
      if (units[start + index] !== text.charCodeAt(index)) return false;
    return true;
  }

  /** The slot holding `text`, or the empty slot where it would go. */
  #slot(text: string, hash: number): number {
    const table = this.#table;
    const mask = table.length - 1;
    let slot = hash & mask;
    for (;;) {
      const entry = table[slot] as number;
      if (entry === 0 || (this.#hashes[entry - 1] === hash && this.#equals(entry - 1, text)))
        return slot;
      slot = (slot + 1) & mask;
    }
  }

  /** The id of `text`, or -1 when it was never added. */
  find(text: string): number {
    return (this.#table[this.#slot(text, StringIds.hash(text))] as number) - 1;
  }

  /** The id of `text`, adding it when new. */
  id(text: string): number {
    const hash = StringIds.hash(text);
    const slot = this.#slot(text, hash);
    const entry = this.#table[slot] as number;
    if (entry !== 0) return entry - 1;
    const id = this.#count;
    if (id === this.#starts.length) {
      this.#starts = grow(this.#starts, id * 2);
      this.#lengths = grow(this.#lengths, id * 2);
      this.#hashes = grow(this.#hashes, id * 2);
    }
    if (this.#used + text.length > this.#units.length) {
      const units = new Uint16Array(Math.max(this.#units.length * 2, this.#used + text.length));
      units.set(this.#units.subarray(0, this.#used));
      this.#units = units;
    }
    const units = this.#units;
    const used = this.#used;
    for (let index = 0; index < text.length; index += 1)
      units[used + index] = text.charCodeAt(index);
    this.#starts[id] = used;
    this.#lengths[id] = text.length;
    this.#hashes[id] = hash;
    this.#used = used + text.length;
    this.#count += 1;
    this.#table[slot] = id + 1;
    if (this.#count * 2 > this.#table.length) this.#rehash();
    return id;
  }

  /** The string of `id`. */
  text(id: number): string {
    const start = this.#starts[id] as number;
    const end = start + (this.#lengths[id] as number);
    let text = "";
    for (let from = start; from < end; from += 4096)
      text += String.fromCharCode(...this.#units.subarray(from, Math.min(end, from + 4096)));
    return text;
  }

  #rehash(): void {
    const table = new Int32Array(this.#table.length * 2);
    const mask = table.length - 1;
    for (let id = 0; id < this.#count; id += 1) {
      let slot = (this.#hashes[id] as number) & mask;
      while (table[slot] !== 0) slot = (slot + 1) & mask;
      table[slot] = id + 1;
    }
    this.#table = table;
  }
}

function grow(array: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const grown = new Int32Array(length);
  grown.set(array);
  return grown;
}

/** A growable column of int32 values. */
export class IntColumn {
  #values: Int32Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#values = new Int32Array(capacity);
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#values.length)
      this.#values = grow(this.#values, this.#values.length * 2);
    this.#values[this.#length] = value;
    this.#length += 1;
  }

  at(index: number): number {
    return this.#values[index] as number;
  }

  set(index: number, value: number): void {
    this.#values[index] = value;
  }
}

function growFloat(array: Float64Array, length: number): Float64Array<ArrayBuffer> {
  const grown = new Float64Array(length);
  grown.set(array);
  return grown;
}

/** A growable column of numbers (float64: any integer a count can reach, exactly). */
export class NumberColumn {
  #values: Float64Array;
  #length = 0;

  constructor(capacity = 1024) {
    this.#values = new Float64Array(Math.max(1, capacity));
  }

  get length(): number {
    return this.#length;
  }

  push(value: number): void {
    if (this.#length === this.#values.length)
      this.#values = growFloat(this.#values, this.#values.length * 2);
    this.#values[this.#length] = value;
    this.#length += 1;
  }

  at(index: number): number {
    return this.#values[index] as number;
  }
}
