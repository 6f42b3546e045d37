// Python dict semantics over pyjson values: keys compare like Python (1 == True == 1.0, one shared NaN),
// unhashable lists/dicts raise TypeError, and the first inserted key object is the one kept.
import { PyFloat, typeName } from "./pyjson.mjs";

export class PyTypeError extends Error {}

export function hashKey(value) {
  if (Array.isArray(value) || value instanceof Map) throw new PyTypeError(`unhashable type: '${typeName(value)}'`);
  if (value === null) return "none";
  if (typeof value === "string") return `s:${value}`;
  if (typeof value === "boolean") return `n:${value ? 1 : 0}`;
  if (typeof value === "bigint") return `n:${value}`;
  const x = value.value;
  if (Number.isNaN(x)) return "nan";
  if (Number.isInteger(x)) return `n:${BigInt(x)}`;
  return `f:${x}`;
}

/** An insertion-ordered dict whose keys are pyjson values. */
export class PyDict {
  constructor() {
    this.entries = new Map(); // hashKey -> [key, value]
  }

  has(key) {
    return this.entries.has(hashKey(key));
  }

  get(key) {
    return this.entries.get(hashKey(key))?.[1];
  }

  set(key, value) {
    const h = hashKey(key);
    const old = this.entries.get(h);
    this.entries.set(h, [old ? old[0] : key, value]);
  }

  toMap() {
    // For dumps: JSON keys as Python's json.dumps converts them.
    return { pairs: [...this.entries.values()].map(([key, value]) => [jsonKey(key), value]) };
  }
}

function jsonKey(key) {
  if (typeof key === "string") return key;
  if (key === null) return "null";
  if (key === true) return "true";
  if (key === false) return "false";
  if (typeof key === "bigint") return key.toString();
  if (key instanceof PyFloat) return JSON_FLOAT(key.value);
  return String(key);
}

let JSON_FLOAT = (x) => String(x);
export function setFloatKeyFormatter(fn) {
  JSON_FLOAT = fn;
}
