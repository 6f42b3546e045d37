// Encode text, decode Base58 strings and encode integers: a JavaScript port of base58_text.py.
import { pyInt, pyRstrip } from "./pyint.mjs";

const NAMES = ["mode", "text", "alphabet"];
const ALPHABETS = {
  bitcoin: "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz",
  ripple: "rpshnaf39wBUDNEGHJKLM4PQRST7VWXYZ2bcdeCg65jkm8oFqi1tuvAxyz",
};

const out = [];
const print = (line) => out.push(`${line}\n`);

function usage(message) {
  process.stderr.write(`usage error: ${message}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  if (argv.length % 2) usage("expected --name value pairs");
  const opts = new Map();
  for (let i = 0; i < argv.length; i += 2) {
    const key = argv[i];
    if (!key.startsWith("--") || !NAMES.includes(key.slice(2))) usage(`unknown argument ${key}`);
    opts.set(key.slice(2), argv[i + 1]);
  }
  return opts;
}

function encodeInt(i, alphabet, defaultOne = true) {
  if (i === 0n && defaultOne) return alphabet[0];
  let s = "";
  while (i > 0n) {
    s = alphabet[Number(i % 58n)] + s;
    i /= 58n;
  }
  return s;
}

function b58encode(bytes, alphabet) {
  let zeros = 0;
  while (zeros < bytes.length && bytes[zeros] === 0) zeros += 1;
  let acc = 0n;
  for (const b of bytes.subarray(zeros)) acc = (acc << 8n) | BigInt(b);
  return alphabet[0].repeat(zeros) + encodeInt(acc, alphabet, false);
}

function pyAsciiCheck(text) {
  // Python's str.encode("ascii") error: the first run of consecutive non-ASCII characters.
  const chars = Array.from(text);
  const start = chars.findIndex((ch) => ch.codePointAt(0) > 0x7f);
  if (start < 0) return;
  let end = start;
  while (end < chars.length && chars[end].codePointAt(0) > 0x7f) end += 1;
  const head = "'ascii' codec can't encode";
  const tail = "ordinal not in range(128)";
  if (end - start === 1) {
    throw new Error(`${head} character '${escapeCodePoint(chars[start].codePointAt(0))}' in position ${start}: ${tail}`);
  }
  throw new Error(`${head} characters in position ${start}-${end - 1}: ${tail}`);
}

function escapeCodePoint(cp) {
  const hex = cp.toString(16);
  if (cp < 0x100) return `\\x${hex.padStart(2, "0")}`;
  if (cp < 0x10000) return `\\u${hex.padStart(4, "0")}`;
  return `\\U${hex.padStart(8, "0")}`;
}

function reprChar(ch) {
  const cp = ch.charCodeAt(0);
  if (ch === "'") return `"'"`;
  if (ch === "\\") return "'\\\\'";
  if (ch === "\n") return "'\\n'";
  if (ch === "\r") return "'\\r'";
  if (ch === "\t") return "'\\t'";
  if (cp < 0x20 || cp === 0x7f) return `'\\x${cp.toString(16).padStart(2, "0")}'`;
  return `'${ch}'`;
}

function b58decode(text, alphabet) {
  let v = pyRstrip(text);
  pyAsciiCheck(v);
  const origlen = v.length;
  while (v.startsWith(alphabet[0])) v = v.slice(1);
  const zeros = origlen - v.length;
  v = v.replace(/[ \t\n\v\f\r]+$/, "");
  let acc = 0n;
  for (const ch of v) {
    const index = alphabet.indexOf(ch);
    if (index < 0) throw new Error(`Invalid character ${reprChar(ch)}`);
    acc = acc * 58n + BigInt(index);
  }
  const bytes = [];
  while (acc > 0n) {
    bytes.push(Number(acc % 256n));
    acc /= 256n;
  }
  return Uint8Array.from([...new Array(zeros).fill(0), ...bytes.reverse()]);
}

function encode(text, alphabet) {
  const data = new TextEncoder().encode(text);
  print(`bytes: ${data.length}`);
  print(`base58: ${b58encode(data, alphabet)}`);
}

function decode(text, alphabet) {
  let data;
  try {
    data = b58decode(text, alphabet);
  } catch (err) {
    return print(`error: ${err.message}`);
  }
  print(`hex: ${Buffer.from(data).toString("hex")}`);
  try {
    print(`utf8: ${new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(data)}`);
  } catch {
    print("utf8: (invalid)");
  }
}

function encodeIntMode(text, alphabet) {
  const number = pyInt(text);
  if (number === null) return print("error: --text is not an integer");
  if (number < 0n) return print("error: negative integers have no Base58 form");
  print(`base58: ${encodeInt(number, alphabet)}`);
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const alphabet = ALPHABETS[opts.has("alphabet") ? opts.get("alphabet") : "bitcoin"];
  if (!Object.hasOwn(ALPHABETS, opts.get("alphabet") ?? "bitcoin")) {
    return print("error: --alphabet must be bitcoin or ripple");
  }
  if (!opts.has("text")) return print("error: --text is required");
  const modes = { encode, decode, int: encodeIntMode };
  const name = opts.get("mode") ?? "encode";
  if (!Object.hasOwn(modes, name)) return print("error: --mode must be encode, decode or int");
  modes[name](opts.get("text"), alphabet);
}

main();
process.stdout.write(out.join(""));
