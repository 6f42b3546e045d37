// Draft detector: a pure JavaScript port of the jsonschema validator_for test program.
import { readFileSync } from "node:fs";

const DRAFTS = {
  "http://json-schema.org/draft-03/schema": {
    name: "Draft3Validator",
    id: "http://json-schema.org/draft-03/schema#",
    formats: ["date", "email", "idn-email", "ip-address", "ipv6", "regex", "time"],
  },
  "http://json-schema.org/draft-04/schema": {
    name: "Draft4Validator",
    id: "http://json-schema.org/draft-04/schema#",
    formats: ["email", "idn-email", "ipv4", "ipv6", "regex"],
  },
  "http://json-schema.org/draft-06/schema": {
    name: "Draft6Validator",
    id: "http://json-schema.org/draft-06/schema#",
    formats: ["email", "idn-email", "ipv4", "ipv6", "regex"],
  },
  "http://json-schema.org/draft-07/schema": {
    name: "Draft7Validator",
    id: "http://json-schema.org/draft-07/schema#",
    formats: ["date", "email", "idn-email", "ipv4", "ipv6", "regex"],
  },
  "https://json-schema.org/draft/2019-09/schema": {
    name: "Draft201909Validator",
    id: "https://json-schema.org/draft/2019-09/schema",
    formats: ["date", "email", "idn-email", "ipv4", "ipv6", "regex", "uuid"],
  },
  "https://json-schema.org/draft/2020-12/schema": {
    name: "Draft202012Validator",
    id: "https://json-schema.org/draft/2020-12/schema",
    formats: ["date", "email", "idn-email", "ipv4", "ipv6", "regex", "uuid"],
  },
};

const USES_NETLOC = new Set([
  "", "ftp", "http", "gopher", "nntp", "telnet", "imap", "wais", "file", "mms", "https", "shttp", "snews",
  "prospero", "rtsp", "rtsps", "rtspu", "rsync", "svn", "svn+ssh", "sftp", "nfs", "git", "git+ssh", "ws", "wss",
]);
const LINE_BREAKS = new Set(["\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]);
const PY_WS = /^[\s\x1c-\x1f\x85]*$/u;

class PyError extends Error {
  constructor(type, message) {
    super(message);
    this.type = type;
  }
}

function splitlines(text) {
  const lines = [];
  let cur = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (LINE_BREAKS.has(ch)) {
      lines.push(cur);
      cur = "";
      if (ch === "\r" && text[i + 1] === "\n") i++;
    } else cur += ch;
  }
  if (cur !== "") lines.push(cur);
  return lines;
}

function isBlank(line) {
  // Python str.strip() removes Unicode whitespace; JS \s lacks \x1c-\x1f and \x85 and has \ufeff.
  for (const ch of line) {
    const c = ch.codePointAt(0);
    const ws = (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 || c === 0x1680 ||
      (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
    if (!ws) return false;
  }
  return true;
}

// Python urllib.parse.urlsplit(uri).geturl()
function normalize(uri) {
  let url = uri.replace(/^[\x00-\x20]+/, "").replace(/[\t\r\n]/g, "");
  let scheme = "";
  let netloc = "";
  let query = "";
  let fragment = "";
  const i = url.indexOf(":");
  if (i > 0 && /^[A-Za-z]/.test(url) && /^[A-Za-z0-9+\-.]+$/.test(url.slice(0, i))) {
    scheme = url.slice(0, i).toLowerCase();
    url = url.slice(i + 1);
  }
  if (url.startsWith("//")) {
    let end = url.length;
    for (const c of "/?#") {
      const w = url.indexOf(c, 2);
      if (w >= 0) end = Math.min(end, w);
    }
    netloc = url.slice(2, end);
    url = url.slice(end);
    if ((netloc.includes("[") && !netloc.includes("]")) || (netloc.includes("]") && !netloc.includes("["))) {
      throw new PyError("ValueError", "Invalid IPv6 URL");
    }
  }
  const h = url.indexOf("#");
  if (h >= 0) {
    fragment = url.slice(h + 1);
    url = url.slice(0, h);
  }
  const q = url.indexOf("?");
  if (q >= 0) {
    query = url.slice(q + 1);
    url = url.slice(0, q);
  }
  let out = url;
  if (netloc || (scheme && USES_NETLOC.has(scheme) && out.slice(0, 2) !== "//")) {
    if (out && out[0] !== "/") out = "/" + out;
    out = "//" + netloc + out;
  }
  if (scheme) out = scheme + ":" + out;
  if (query) out += "?" + query;
  if (fragment) out += "#" + fragment;
  return out;
}

function pyTypeName(v) {
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number") return Number.isInteger(v) && !v.__float ? "int" : "float";
  if (Array.isArray(v)) return "list";
  return "dict";
}

function validatorFor(schema, rawSchemaValue) {
  if (typeof schema === "boolean" || !Object.prototype.hasOwnProperty.call(schema, "$schema")) return null;
  const value = schema.$schema;
  if (value === null) return null;
  if (typeof value === "string") {
    const key = normalize(value);
    return DRAFTS[key] || null;
  }
  if (typeof value === "number" || typeof value === "boolean") {
    if (value === 0 || value === false) return null; // falsy values are treated as an empty URI
    const t = typeof value === "boolean" ? "bool" : rawSchemaValue;
    throw new PyError("AttributeError", `'${t}' object has no attribute 'decode'`);
  }
  throw new PyError("TypeError", `unhashable type: '${Array.isArray(value) ? "list" : "dict"}'`);
}

// The Python type of a JSON number depends on its spelling: int unless it has '.', 'e' or 'E'.
function schemaNumberType(line) {
  const m = /"\$schema"\s*:\s*(-?[0-9][0-9.eE+\-]*)/.exec(line);
  let last = null;
  const re = /"\$schema"\s*:\s*(-?[0-9][0-9.eE+\-]*)/g;
  let mm;
  while ((mm = re.exec(line)) !== null) last = mm[1];
  const text = last ?? (m ? m[1] : "0");
  return /[.eE]/.test(text) ? "float" : "int";
}

function quoted(value) {
  return JSON.stringify(value);
}

function main() {
  const argv = process.argv.slice(2);
  let formats = "false";
  for (let i = 0; i + 1 < argv.length; i += 2) if (argv[i] === "--formats") formats = argv[i + 1];
  const showFormats = ["true", "1", "yes"].includes(formats.trim().toLowerCase());
  let text = "";
  try {
    text = readFileSync(0, "utf8");
  } catch {
    text = "";
  }
  const out = [];
  const counts = new Map();
  const bump = (name) => counts.set(name, (counts.get(name) || 0) + 1);
  splitlines(text).forEach((line, index) => {
    const number = index + 1;
    if (isBlank(line)) return;
    let schema;
    try {
      schema = JSON.parse(line);
    } catch {
      out.push(`${number}: error: not JSON`);
      return;
    }
    if (!(typeof schema === "boolean" || (schema !== null && typeof schema === "object" && !Array.isArray(schema)))) {
      out.push(`${number}: error: a schema must be an object or a boolean`);
      return;
    }
    const declared = typeof schema === "object" && Object.prototype.hasOwnProperty.call(schema, "$schema") ? schema.$schema : null;
    let draft;
    try {
      draft = validatorFor(schema, schemaNumberType(line));
    } catch (err) {
      if (!(err instanceof PyError)) throw err;
      out.push(`${number}: error: ${err.type}: ${err.message}`);
      return;
    }
    if (draft === null) {
      if (typeof schema === "object" && Object.prototype.hasOwnProperty.call(schema, "$schema")) {
        let shown = quoted(declared);
        if (typeof declared === "number" && schemaNumberType(line) === "float") {
          shown = Number.isInteger(declared) ? (Object.is(declared, -0) ? "-0.0" : declared.toFixed(1)) : String(declared);
        }
        out.push(`${number}: unknown $schema ${shown}`);
        bump("(unknown)");
      } else {
        out.push(`${number}: no $schema (the latest draft applies)`);
        bump("(default)");
      }
      return;
    }
    out.push(`${number}: ${draft.name} (meta-schema ${draft.id})`);
    if (declared !== null) out.push(`  declared: ${quoted(declared)}`);
    if (showFormats) out.push(`  formats: ${draft.formats.join(", ")}`);
    bump(draft.name);
  });
  const names = [...counts.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const name of names) out.push(`${name}: ${counts.get(name)}`);
  process.stdout.write(out.length ? out.join("\n") + "\n" : "");
}

main();
