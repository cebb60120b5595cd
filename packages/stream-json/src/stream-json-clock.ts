// Times of stream-json lines: a line's own `timestamp` through core's
// readTimestamp, or — for the many lines that carry none — a synthesized
// one, 1 ms after the previous message, from the caller's start time.
import { type JsonObject, ownValue, readTimestamp } from "@txcript/core";

/** 9999-12-31T23:59:59.999Z: the last time a Common timestamp can hold. */
export const maximumTime = 253_402_300_799_999;

/** A line's own timestamp as a Common timestamp, when it has a valid one (a string). */
export function ownTimestamp(value: JsonObject): string | undefined {
  const own = ownValue(value, "timestamp");
  return typeof own === "string" ? readTimestamp(own) : undefined;
}

export class LineClock {
  readonly #start: number;
  #clock: number | undefined;
  /** The second last formatted by #iso, and its "YYYY-MM-DDTHH:MM:SS." prefix. */
  #isoSecond = Number.NaN;
  #isoPrefix = "";

  constructor(start: number) {
    this.#start = start;
  }

  /** The start time as a Common timestamp. */
  get start(): string {
    return new Date(this.#start).toISOString();
  }

  /**
   * The line's time: its own, else 1 ms after the previous message (the
   * first: the start time), and `synthesized` is told.
   */
  stamp(value: JsonObject, synthesized: () => void): string {
    const own = ownTimestamp(value);
    if (own !== undefined) {
      this.#clock = Date.parse(own);
      return own;
    }
    synthesized();
    const time = Math.min(this.#clock === undefined ? this.#start : this.#clock + 1, maximumTime);
    this.#clock = time;
    return this.#iso(time);
  }

  /**
   * `new Date(time).toISOString()`, which is slow enough to show in profiles:
   * stamped lines are 1 ms apart, so most share the previous one's second and
   * only the milliseconds are written anew. Times are within years 0000–9999.
   */
  #iso(time: number): string {
    const second = Math.floor(time / 1000);
    if (second !== this.#isoSecond) {
      const iso = new Date(time).toISOString();
      this.#isoSecond = second;
      this.#isoPrefix = iso.slice(0, -4);
      return iso;
    }
    const ms = time - second * 1000;
    return `${this.#isoPrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z`;
  }
}
