import { InvalidPayloadError } from "../../src/errors.js";

/**
 * A read-only view of an untrusted payload, modelled on Zulip's WildValue. Every read names its
 * path, so a missing key or a wrong type becomes a 400 that says where (`issue.number`), never a 500.
 * Handlers read payloads only through this class: never cast a payload to an interface.
 */
export class Wild {
  constructor(
    readonly value: unknown,
    readonly path = "payload",
  ) {}

  /**
   * Python's truthiness of an optional value (`if payload.get("x"):`): false when absent, null,
   * "", 0, false, [] or {}; narrows to a present Wild.
   */
  static truthy(w: Wild | undefined): w is Wild {
    if (w === undefined) return false;
    const v = w.value;
    if (typeof v === "string") return v !== "";
    if (typeof v === "number") return v !== 0;
    if (typeof v === "boolean") return v;
    if (Array.isArray(v)) return v.length > 0;
    return typeof v === "object" && v !== null && Object.keys(v).length > 0;
  }

  /** An optional string: null when absent or null (Python's `payload.get("x")`); throws on another type. */
  static strOrNull(w: Wild | undefined): string | null {
    return w === undefined || w.isNull() ? null : w.str();
  }

  private child(key: string | number): string {
    return typeof key === "number"
      ? `${this.path}[${key}]`
      : this.path === "payload"
        ? key
        : `${this.path}.${key}`;
  }

  private typeError(expected: string): InvalidPayloadError {
    return new InvalidPayloadError(`${this.path} is not ${expected}`, this.path);
  }

  private object(): Record<string, unknown> {
    if (typeof this.value !== "object" || this.value === null || Array.isArray(this.value)) {
      throw this.typeError("a dict");
    }
    return this.value as Record<string, unknown>;
  }

  /** The value at `key`; throws "Missing key 'a.b'" when absent. A present null is returned as is. */
  get(key: string): Wild {
    const obj = this.object();
    if (!Object.prototype.hasOwnProperty.call(obj, key)) {
      throw new InvalidPayloadError(`Missing key '${this.child(key)}' in JSON payload`, this.child(key));
    }
    return new Wild(obj[key], this.child(key));
  }

  /** The value at `key`, or undefined when the key is absent or null (or this is not an object). */
  opt(key: string): Wild | undefined {
    if (typeof this.value !== "object" || this.value === null || Array.isArray(this.value)) return undefined;
    const obj = this.value as Record<string, unknown>;
    const v = obj[key];
    return v === undefined || v === null ? undefined : new Wild(v, this.child(key));
  }

  /** Walks several keys: `p.at("a", "b", 0)`; throws naming the first missing step. */
  at(...keys: (string | number)[]): Wild {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk starts here
    let w: Wild = this;
    for (const k of keys) w = typeof k === "number" ? w.index(k) : w.get(k);
    return w;
  }

  /** Like `at` but undefined when any step is absent or null. */
  optAt(...keys: (string | number)[]): Wild | undefined {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk starts here
    let w: Wild | undefined = this;
    for (const k of keys) {
      if (w === undefined) return undefined;
      if (typeof k === "number") {
        const arr: unknown = w.value;
        w =
          Array.isArray(arr) && arr[k] !== undefined && arr[k] !== null
            ? new Wild(arr[k], w.child(k))
            : undefined;
      } else {
        w = w.opt(k);
      }
    }
    return w;
  }

  has(key: string): boolean {
    return this.opt(key) !== undefined;
  }

  index(i: number): Wild {
    const arr = this.items();
    const item = arr[i];
    if (item === undefined) {
      throw new InvalidPayloadError(`Missing key '${this.child(i)}' in JSON payload`, this.child(i));
    }
    return item;
  }

  isNull(): boolean {
    return this.value === null || this.value === undefined;
  }

  str(): string {
    if (typeof this.value !== "string") throw this.typeError("a string");
    return this.value;
  }

  int(): number {
    if (typeof this.value !== "number" || !Number.isInteger(this.value)) throw this.typeError("an integer");
    return this.value;
  }

  num(): number {
    if (typeof this.value !== "number") throw this.typeError("a number");
    return this.value;
  }

  bool(): boolean {
    if (typeof this.value !== "boolean") throw this.typeError("a boolean");
    return this.value;
  }

  /** A string, or a number shown as Python would show it (ids that some services send as either). */
  text(): string {
    if (typeof this.value === "string") return this.value;
    if (typeof this.value === "number" || typeof this.value === "boolean") return String(this.value);
    throw this.typeError("a string");
  }

  items(): Wild[] {
    if (!Array.isArray(this.value)) throw this.typeError("a list");
    return this.value.map((v, i) => new Wild(v, this.child(i)));
  }

  entries(): [string, Wild][] {
    return Object.entries(this.object()).map(([k, v]) => [k, new Wild(v, this.child(k))]);
  }

  keys(): string[] {
    return Object.keys(this.object());
  }

  isList(): boolean {
    return Array.isArray(this.value);
  }

  isObject(): boolean {
    return typeof this.value === "object" && this.value !== null && !Array.isArray(this.value);
  }
}
