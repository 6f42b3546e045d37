// Ports of the toolz 1.0.0 functions used by toolz_records.py, over pyjson values and PyDict.
import { PyDict, PyTypeError, hashKey } from "./pydict.mjs";
import { strRepr } from "./pyjson.mjs";

export class PyKeyError extends Error {}

function getKey(record, key) {
  if (!record.has(key)) throw new PyKeyError(strRepr(key));
  return record.get(key);
}

export function groupby(key, records) {
  const groups = new PyDict();
  for (const r of records) {
    const k = getKey(r, key);
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k).push(r);
  }
  return groups.toMap();
}

export function frequencies(values) {
  const counts = new PyDict();
  for (const v of values) counts.set(v, (counts.has(v) ? counts.get(v) : 0n) + 1n);
  return counts.toMap();
}

export function countby(key, records) {
  return frequencies(records.map((r) => getKey(r, key)));
}

export function pluck(key, records) {
  return records.map((r) => (r.has(key) ? r.get(key) : null));
}

export function unique(values) {
  const seen = new Set();
  const out = [];
  for (const v of values) {
    const h = hashKey(v);
    if (!seen.has(h)) {
      seen.add(h);
      out.push(v);
    }
  }
  return out;
}

export function merge(records) {
  const out = new Map();
  for (const r of records) for (const [k, v] of r) out.set(k, v);
  return out;
}

export function mergeWith(records) {
  const out = new Map();
  for (const r of records) {
    for (const [k, v] of r) {
      if (!out.has(k)) out.set(k, []);
      out.get(k).push(v);
    }
  }
  return out;
}

export function keyfilter(pred, map) {
  return new Map([...map].filter(([k]) => pred(k)));
}

export function getIn(path, coll) {
  for (const step of path) {
    if (Array.isArray(coll)) {
      if (typeof step !== "bigint" || step >= BigInt(coll.length)) return null;
      coll = coll[Number(step)];
    } else if (typeof coll === "string") {
      const chars = Array.from(coll);
      if (typeof step !== "bigint" || step >= BigInt(chars.length)) return null;
      coll = chars[Number(step)];
    } else if (coll instanceof Map) {
      if (typeof step !== "string" || !coll.has(step)) return null;
      coll = coll.get(step);
    } else {
      return null;
    }
  }
  return coll;
}

export function assocIn(record, path, value) {
  const root = new Map(record);
  let inner = root;
  let d = record;
  for (const step of path.slice(0, -1)) {
    const next = d instanceof Map && d.has(step) ? new Map(d.get(step)) : new Map();
    d = d instanceof Map && d.has(step) ? d.get(step) : new Map();
    inner.set(step, next);
    inner = next;
  }
  inner.set(path[path.length - 1], value);
  return root;
}

export { PyTypeError };
