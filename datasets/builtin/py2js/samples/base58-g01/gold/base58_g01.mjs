// Port of base58-g01: encode UTF-8 text to Base58, or decode a Base58 string, Bitcoin or Ripple alphabet.
import { readFileSync } from "node:fs";

const ALPHABETS = {
  bitcoin: "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
  ripple: "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz",
};

// Python's str.isspace() characters (what str.rstrip() removes).
const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000,
]);

class PyError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}

function parseArgs(argv) {
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) out[a.slice(2, eq)] = a.slice(eq + 1);
      else out[a.slice(2)] = argv[++i];
    }
  }
  return out;
}

function pyReprChar(ch) {
  const cp = ch.codePointAt(0);
  let body;
  if (ch === "\\") body = "\\\\";
  else if (ch === "\t") body = "\\t";
  else if (ch === "\n") body = "\\n";
  else if (ch === "\r") body = "\\r";
  else if (cp < 0x20 || cp === 0x7f) body = "\\x" + cp.toString(16).padStart(2, "0");
  else body = ch;
  if (ch === "'") return `"'"`;
  return `'${body}'`;
}

function escapeNonAscii(cp) {
  if (cp < 0x100) return "\\x" + cp.toString(16).padStart(2, "0");
  if (cp < 0x10000) return "\\u" + cp.toString(16).padStart(4, "0");
  return "\\U" + cp.toString(16).padStart(8, "0");
}

function pyRstrip(s) {
  const cps = Array.from(s);
  let end = cps.length;
  while (end > 0 && PY_SPACE.has(cps[end - 1].codePointAt(0))) end--;
  return cps.slice(0, end);
}

function asciiCheck(cps) {
  for (let i = 0; i < cps.length; i++) {
    if (cps[i].codePointAt(0) > 127) {
      let j = i;
      while (j + 1 < cps.length && cps[j + 1].codePointAt(0) > 127) j++;
      const msg =
        j === i
          ? `'ascii' codec can't encode character '${escapeNonAscii(cps[i].codePointAt(0))}' in position ${i}: ordinal not in range(128)`
          : `'ascii' codec can't encode characters in position ${i}-${j}: ordinal not in range(128)`;
      throw new PyError("UnicodeEncodeError", msg);
    }
  }
}

function b58encode(bytes, alphabet) {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++;
  let acc = 0n;
  for (let i = zeros; i < bytes.length; i++) acc = (acc << 8n) | BigInt(bytes[i]);
  let digits = "";
  while (acc > 0n) {
    digits = alphabet[Number(acc % 58n)] + digits;
    acc /= 58n;
  }
  return alphabet[0].repeat(zeros) + digits;
}

function b58decode(text, alphabet) {
  const cps = pyRstrip(text);
  asciiCheck(cps);
  let i = 0;
  while (i < cps.length && cps[i] === alphabet[0]) i++;
  const zeros = i;
  let acc = 0n;
  for (; i < cps.length; i++) {
    const idx = alphabet.indexOf(cps[i]);
    if (idx < 0) throw new PyError("ValueError", `Invalid character ${pyReprChar(cps[i])}`);
    acc = acc * 58n + BigInt(idx);
  }
  const out = [];
  while (acc > 0n) {
    out.push(Number(acc & 255n));
    acc >>= 8n;
  }
  out.reverse();
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(out)]);
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const mode = args.mode ?? "encode";
  const alphaName = args.alphabet ?? "bitcoin";
  const lines = [];
  const alphabet = Object.hasOwn(ALPHABETS, alphaName) ? ALPHABETS[alphaName] : null;
  if (alphabet === null) {
    process.stdout.write(`error: unknown alphabet ${pyRepr(alphaName)}\n`);
    return;
  }
  const raw = args.data !== undefined ? Buffer.from(args.data, "utf8") : readFileSync(0);
  if (mode === "encode") {
    const enc = b58encode(raw, alphabet);
    lines.push(`input bytes: ${raw.length}`, `base58: ${enc}`, `length: ${enc.length}`);
  } else if (mode === "decode") {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(raw);
    let decoded;
    try {
      decoded = b58decode(text, alphabet);
    } catch (e) {
      if (!(e instanceof PyError)) throw e;
      process.stdout.write(`error: ${e.kind}: ${e.message}\n`);
      return;
    }
    lines.push(`bytes: ${decoded.length}`);
    lines.push(`hex: ${decoded.length ? decoded.toString("hex") : "(empty)"}`);
    let utf;
    try {
      utf = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(decoded);
    } catch {
      utf = null;
    }
    lines.push(`utf8: ${utf === null ? "(not valid UTF-8)" : utf}`);
  } else {
    lines.push(`error: unknown mode ${pyRepr(mode)}`);
  }
  process.stdout.write(lines.map((l) => l + "\n").join(""));
}

// Python repr() of a str (enough for names given on the command line).
function pyRepr(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = "";
  for (const ch of s) {
    const cp = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp < 0x20 || cp === 0x7f) out += "\\x" + cp.toString(16).padStart(2, "0");
    else out += ch;
  }
  return quote + out + quote;
}

main();
