// A port of jsonpointer 3.0.0 (resolve, set, parts, path) over pyjson values, with Python's error texts.
import { PyFloat, repr, strRepr, typeName } from "./pyjson.mjs";
import { pyInt } from "./pytext.mjs";

export class PyException extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

const pointerError = (message) => new PyException("JsonPointerException", message);

export class EndOfList {
  constructor(list) {
    this.list = list;
  }
}

export const escape = (s) => s.replaceAll("~", "~0").replaceAll("/", "~1");
export const unescape = (s) => s.replaceAll("~1", "/").replaceAll("~0", "~");

const isSequence = (doc) => Array.isArray(doc) || typeof doc === "string";
const isMapping = (doc) => doc instanceof Map;

export class JsonPointer {
  constructor(pointer) {
    const bad = /~[^01]|~(?=\n?$)/su.exec(pointer);
    if (bad) throw pointerError(`Found invalid escape ${bad[0]}`);
    const parts = pointer.split("/");
    if (parts.shift() !== "") throw pointerError("Location must start with /");
    this.parts = parts.map(unescape);
  }

  get path() {
    return this.parts.map((p) => `/${escape(p)}`).join("");
  }

  static getPart(doc, part) {
    if (isMapping(doc)) return part;
    if (isSequence(doc)) {
      if (part === "-") return part;
      // Python: re.match('0|[1-9][0-9]*$', part) -- "0" alone matches any text starting with 0.
      if (!/^(?:0|[1-9][0-9]*(?=\n?$))/.test(part)) throw pointerError(`'${part}' is not a valid sequence index`);
      const n = pyInt(part);
      if (n === null) throw new PyException("ValueError", `invalid literal for int() with base 10: ${strRepr(part)}`);
      return n;
    }
    throw pointerError(
      `Document '<class '${doc instanceof EndOfList ? "jsonpointer.EndOfList" : typeName(doc)}'>' does not support indexing, must be mapping/sequence or support __getitem__`,
    );
  }

  walk(doc, part) {
    const key = JsonPointer.getPart(doc, part);
    if (isSequence(doc)) {
      if (key === "-") return new EndOfList(doc);
      const items = typeof doc === "string" ? Array.from(doc) : doc;
      if (key >= BigInt(items.length)) throw pointerError(`index '${key}' is out of bounds`);
      return items[Number(key)];
    }
    if (!doc.has(key)) throw pointerError(`member '${key}' not found in ${repr(doc)}`);
    return doc.get(key);
  }

  resolve(doc, fallback = undefined) {
    for (const part of this.parts) {
      try {
        doc = this.walk(doc, part);
      } catch (err) {
        if (fallback === undefined || !(err instanceof PyException) || err.kind !== "JsonPointerException") throw err;
        return fallback;
      }
    }
    return doc;
  }

  set(doc, value) {
    if (!this.parts.length) throw pointerError("Cannot set root in place");
    let parent = doc;
    for (const part of this.parts.slice(0, -1)) parent = this.walk(parent, part);
    const part = JsonPointer.getPart(parent, this.parts[this.parts.length - 1]);
    if (isSequence(parent) && part === "-") {
      if (typeof parent === "string") throw new PyException("AttributeError", "'str' object has no attribute 'append'");
      parent.push(value);
    } else if (typeof parent === "string") {
      throw new PyException("TypeError", "'str' object does not support item assignment");
    } else if (Array.isArray(parent)) {
      if (part >= BigInt(parent.length)) throw new PyException("IndexError", "list assignment index out of range");
      parent[Number(part)] = value;
    } else {
      parent.set(part, value);
    }
    return doc;
  }
}

export { PyFloat };
