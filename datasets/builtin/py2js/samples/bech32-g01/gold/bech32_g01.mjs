// Port of bech32-g01: decode bech32 strings (such as Nostr npub/nsec keys) to the hex of their payload.
import { readFileSync } from "node:fs";

const CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];

function polymod(values) {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ GEN[i]) >>> 0;
  }
  return chk;
}

function hrpExpand(hrp) {
  const codes = Array.from(hrp, (c) => c.codePointAt(0));
  return [...codes.map((c) => c >> 5), 0, ...codes.map((c) => c & 31)];
}

function bech32Decode(bech) {
  for (const ch of bech) {
    const c = ch.codePointAt(0);
    if (c < 33 || c > 126) return [null, null];
  }
  if (bech.toLowerCase() !== bech && bech.toUpperCase() !== bech) return [null, null];
  bech = bech.toLowerCase();
  const pos = bech.lastIndexOf("1");
  if (pos < 1 || pos > 83 || pos + 7 > bech.length) return [null, null];
  const rest = bech.slice(pos + 1);
  for (const ch of rest) if (!CHARSET.includes(ch)) return [null, null];
  const hrp = bech.slice(0, pos);
  const data = Array.from(rest, (ch) => CHARSET.indexOf(ch));
  if (polymod([...hrpExpand(hrp), ...data]) !== 1) return [null, null];
  return [hrp, data.slice(0, -6)];
}

function convertbits(data, frombits, tobits, pad) {
  let acc = 0n;
  let bits = 0;
  const ret = [];
  const maxv = (1n << BigInt(tobits)) - 1n;
  const maxAcc = (1n << BigInt(frombits + tobits - 1)) - 1n;
  for (const value of data) {
    if (value < 0 || value >> frombits) return null;
    acc = ((acc << BigInt(frombits)) | BigInt(value)) & maxAcc;
    bits += frombits;
    while (bits >= tobits) {
      bits -= tobits;
      ret.push(Number((acc >> BigInt(bits)) & maxv));
    }
  }
  if (pad) {
    if (bits) ret.push(Number((acc << BigInt(tobits - bits)) & maxv));
  } else if (bits >= frombits || ((acc << BigInt(tobits - bits)) & maxv)) {
    return null;
  }
  return ret;
}

const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);
const LINE_BREAKS = new Set([0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x85, 0x2028, 0x2029]);

function pyStrip(s) {
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  while (a < b && PY_SPACE.has(cps[a].codePointAt(0))) a++;
  while (b > a && PY_SPACE.has(cps[b - 1].codePointAt(0))) b--;
  return cps.slice(a, b).join("");
}

function pySplitlines(s) {
  const out = [];
  let cur = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (LINE_BREAKS.has(c)) {
      if (c === 0x0d && s.charCodeAt(i + 1) === 0x0a) i++;
      out.push(cur);
      cur = "";
    } else cur += s[i];
  }
  if (cur) out.push(cur);
  return out;
}

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

function main() {
  const args = parseArgs(process.argv.slice(2));
  let items;
  if (args.text !== undefined) items = [args.text];
  else {
    const text = readFileSync(0, "utf8").replace(/\r\n?/g, "\n");
    items = pySplitlines(text).map(pyStrip).filter((x) => x);
  }
  const lines = [];
  let decoded = 0;
  for (const item of items) {
    const [hrp, data] = bech32Decode(item);
    if (hrp === null) {
      lines.push(`${item}: error: not a valid bech32 string`);
      continue;
    }
    if (args.expect !== undefined && hrp !== args.expect) {
      lines.push(`${item}: error: prefix ${pyRepr(hrp)}, expected ${pyRepr(args.expect)}`);
      continue;
    }
    const payload = convertbits(data, 5, 8, false);
    if (payload === null) {
      lines.push(`${item}: error: ${data.length} data characters do not regroup into whole bytes`);
      continue;
    }
    decoded++;
    const hex = Buffer.from(payload).toString("hex");
    lines.push(`${hrp}: ${payload.length} bytes: ${hex || "(empty)"}`);
  }
  lines.push(`decoded ${decoded} of ${items.length}`);
  process.stdout.write(lines.map((l) => l + "\n").join(""));
}

main();
