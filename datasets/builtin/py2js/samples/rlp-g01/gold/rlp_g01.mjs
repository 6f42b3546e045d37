// Encode a JSON value as RLP: show the sedes rlp infers for it, the encoded size and the hex encoding.
// Port of rlp-g01 (rlp 4.0.1) in plain Node.js.

class JsonError extends Error {}

// A JSON parser keeping Python's distinctions: integers (BigInt) vs floats, NaN/Infinity accepted.
function parseJson(text) {
  let i = 0;
  const ws = () => { while (i < text.length && " \t\n\r".includes(text[i])) i++; };
  const fail = () => { throw new JsonError("invalid JSON"); };
  function value() {
    ws();
    if (i >= text.length) fail();
    const c = text[i];
    if (c === "{") return object();
    if (c === "[") return array();
    if (c === '"') return { type: "str", value: string() };
    if (text.startsWith("true", i)) { i += 4; return { type: "bool", value: true }; }
    if (text.startsWith("false", i)) { i += 5; return { type: "bool", value: false }; }
    if (text.startsWith("null", i)) { i += 4; return { type: "none" }; }
    if (text.startsWith("NaN", i)) { i += 3; return { type: "float" }; }
    if (text.startsWith("Infinity", i)) { i += 8; return { type: "float" }; }
    if (text.startsWith("-Infinity", i)) { i += 9; return { type: "float" }; }
    return number();
  }
  function number() {
    const m = /^-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/.exec(text.slice(i));
    if (!m) fail();
    i += m[0].length;
    if (m[1] !== undefined || m[2] !== undefined) return { type: "float" };
    return { type: "int", value: BigInt(m[0]) };
  }
  function string() {
    i++; // opening quote
    let out = "";
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i];
      if (c === '"') { i++; return out; }
      if (c === "\\") {
        const e = text[i + 1];
        const map = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
        if (e in map) { out += map[e]; i += 2; continue; }
        if (e === "u") {
          const h = text.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(h)) fail();
          out += String.fromCharCode(parseInt(h, 16));
          i += 6;
          continue;
        }
        fail();
      }
      if (c.charCodeAt(0) < 0x20) fail(); // Python's strict mode rejects raw control characters
      out += c;
      i++;
    }
  }
  function array() {
    i++;
    const items = [];
    ws();
    if (text[i] === "]") { i++; return { type: "list", items }; }
    for (;;) {
      items.push(value());
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "]") { i++; return { type: "list", items }; }
      fail();
    }
  }
  function object() {
    i++;
    ws();
    if (text[i] === "}") { i++; return { type: "dict" }; }
    for (;;) {
      ws();
      if (text[i] !== '"') fail();
      string();
      ws();
      if (text[i] !== ":") fail();
      i++;
      value();
      ws();
      if (text[i] === ",") { i++; continue; }
      if (text[i] === "}") { i++; return { type: "dict" }; }
      fail();
    }
  }
  const v = value();
  ws();
  if (i !== text.length) fail();
  return v;
}

class PyValueError extends Error {}
class PyTypeError extends Error {}

function convert(node, hexStrings) {
  if (node.type === "list") return { type: "list", items: node.items.map((x) => convert(x, hexStrings)) };
  if (hexStrings && node.type === "str" && node.value.startsWith("0x")) {
    const digits = node.value.slice(2);
    if (digits.length % 2 || !/^[0-9a-fA-F]*$/.test(digits)) {
      throw new PyValueError(`invalid hex string: ${node.value}`);
    }
    return { type: "bytes", value: Buffer.from(digits, "hex") };
  }
  return node;
}

const TYPE_NAMES = { int: "int", float: "float", none: "NoneType", dict: "dict" };

// rlp.infer_sedes: returns a description tree; raises the TypeError rlp raises.
function inferSedes(node) {
  switch (node.type) {
    case "int":
      if (node.value >= 0n) return "BigEndianInt";
      break;
    case "bytes":
      return "Binary";
    case "list":
      return { list: node.items.map(inferSedes) };
    case "bool":
      return "Boolean";
    case "str":
      return "Text";
    default:
      break;
  }
  throw new PyTypeError(`Did not find sedes handling type ${TYPE_NAMES[node.type]}`);
}

function describe(sedes) {
  if (typeof sedes === "string") return sedes;
  return "List[" + sedes.list.map(describe).join(", ") + "]";
}

function intToBigEndian(n) {
  if (n === 0n) return Buffer.alloc(0);
  let hex = n.toString(16);
  if (hex.length % 2) hex = "0" + hex;
  return Buffer.from(hex, "hex");
}

function serialize(node) {
  switch (node.type) {
    case "int":
      return intToBigEndian(node.value);
    case "bytes":
      return node.value;
    case "bool":
      return node.value ? Buffer.from([1]) : Buffer.alloc(0);
    case "str":
      return Buffer.from(node.value, "utf8");
    case "list":
      return node.items.map(serialize);
    default:
      throw new Error("unreachable");
  }
}

function lengthPrefix(length, offset) {
  if (length < 56) return Buffer.from([offset + length]);
  const l = intToBigEndian(BigInt(length));
  return Buffer.concat([Buffer.from([offset + 55 + l.length]), l]);
}

function encodeRaw(item) {
  if (Buffer.isBuffer(item)) {
    if (item.length === 1 && item[0] < 128) return item;
    return Buffer.concat([lengthPrefix(item.length, 0x80), item]);
  }
  const payload = Buffer.concat(item.map(encodeRaw));
  return Buffer.concat([lengthPrefix(payload.length, 0xc0), payload]);
}

function usage(message) {
  process.stderr.write(
    "usage: rlp_g01.mjs [-h] --value VALUE [--hex-strings {true,false}]\n" +
      `rlp_g01.mjs: error: ${message}\n`,
  );
  process.exit(2);
}

function parseArgs(argv) {
  const opts = {};
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    let name;
    let val;
    if (arg.startsWith("--") && arg.includes("=")) {
      name = arg.slice(2, arg.indexOf("="));
      val = arg.slice(arg.indexOf("=") + 1);
    } else if (arg === "--value" || arg === "--hex-strings") {
      name = arg.slice(2);
      if (k + 1 >= argv.length) usage(`argument --${name}: expected one argument`);
      val = argv[++k];
    } else {
      usage(`unrecognized arguments: ${arg}`);
    }
    if (name !== "value" && name !== "hex-strings") usage(`unrecognized arguments: ${arg}`);
    opts[name] = val;
  }
  if (opts.value === undefined) usage("the following arguments are required: --value");
  const hex = opts["hex-strings"] ?? "false";
  if (hex !== "true" && hex !== "false") {
    usage(`argument --hex-strings: invalid choice: '${hex}' (choose from 'true', 'false')`);
  }
  return { value: opts.value, hexStrings: hex === "true" };
}

function main() {
  const args = parseArgs(process.argv.slice(2));
  const out = [];
  let value;
  try {
    value = parseJson(args.value);
  } catch (e) {
    if (e instanceof JsonError) {
      process.stdout.write("error: invalid JSON\n");
      return;
    }
    throw e;
  }
  let obj;
  try {
    obj = convert(value, args.hexStrings);
  } catch (e) {
    if (e instanceof PyValueError) {
      process.stdout.write(`error: ${e.message}\n`);
      return;
    }
    throw e;
  }
  let sedes;
  let encoded;
  try {
    sedes = inferSedes(obj);
    encoded = encodeRaw(serialize(obj));
  } catch (e) {
    if (e instanceof PyTypeError) {
      process.stdout.write(`error: TypeError: ${e.message}\n`);
      return;
    }
    throw e;
  }
  out.push(`sedes: ${describe(sedes)}`);
  out.push(`length: ${encoded.length}`);
  out.push(`rlp: ${encoded.toString("hex")}`);
  process.stdout.write(out.join("\n") + "\n");
}

main();
