// Python repr() of the values these programs print: str, int (BigInt), None (null), lists and tuples.

function isPrintable(ch) {
  // Python str.isprintable(): not Cc, Cf, Cs, Co, Cn, Zl, Zp, or a space separator other than ' '.
  if (ch === " ") return true;
  return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch);
}

export function strRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (!isPrintable(ch)) {
      const hex = cp.toString(16);
      if (cp < 0x100) out += `\\x${hex.padStart(2, "0")}`;
      else if (cp < 0x10000) out += `\\u${hex.padStart(4, "0")}`;
      else out += `\\U${hex.padStart(8, "0")}`;
    } else out += ch;
  }
  return out + quote;
}

/** A Python tuple: a marker wrapper around an array. */
export class Tuple {
  constructor(items) {
    this.items = items;
  }
}

export const tuple = (items) => new Tuple(items);

export function repr(value) {
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return strRepr(value);
  if (typeof value === "bigint" || typeof value === "number") return String(value);
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value instanceof Tuple) {
    if (value.items.length === 1) return `(${repr(value.items[0])},)`;
    return `(${value.items.map(repr).join(", ")})`;
  }
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  throw new TypeError(`no repr for ${value}`);
}

/** Python's ordering of two str values: by code points. */
export function strCmp(a, b) {
  const x = Array.from(a, (ch) => ch.codePointAt(0));
  const y = Array.from(b, (ch) => ch.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) {
    if (x[i] !== y[i]) return x[i] < y[i] ? -1 : 1;
  }
  return x.length - y.length < 0 ? -1 : x.length > y.length ? 1 : 0;
}
