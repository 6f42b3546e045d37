// Port of rsa-g01: unsigned integers <-> big-endian bytes (rsa.transform.int2bytes / bytes2int).

function parseArgs(argv) {
  const out = { mode: "to-bytes", value: "0", fill: 0 };
  for (let i = 0; i < argv.length; i += 2) {
    const name = argv[i].replace(/^--/, "");
    const val = argv[i + 1];
    if (name === "fill") out.fill = parseInt(val.trim(), 10);
    else out[name] = val;
  }
  return out;
}

// Python's str.strip() (no arguments) removes Unicode whitespace.
const WS = "\\s\\u001c-\\u001f\\u0085";
function pyStrip(s) {
  return s.replace(new RegExp(`^[${WS}]+|[${WS}]+$`, "gu"), "");
}

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

function int2bytes(number, fillSize = 0) {
  if (number < 0n) {
    const err = new Error(`Number must be an unsigned integer: ${number}`);
    err.pyType = "ValueError";
    throw err;
  }
  const required = Math.max(1, Math.ceil(bitLength(number) / 8));
  let hex = number.toString(16);
  if (hex.length % 2) hex = "0" + hex;
  if (fillSize > 0) {
    if (required > fillSize && number !== 0n) {
      const err = new Error("int too big to convert");
      err.pyType = "OverflowError";
      throw err;
    }
    return hex.padStart(fillSize * 2, "0").slice(-fillSize * 2);
  }
  return hex.padStart(required * 2, "0");
}

function bytes2int(hex) {
  return hex.length === 0 ? 0n : BigInt("0x" + hex);
}

function toBytes(value, fill) {
  if (!/^-?[0-9]+$/.test(value)) {
    console.log("error: value must be a decimal integer");
    return;
  }
  const number = BigInt(value);
  let raw;
  try {
    raw = int2bytes(number, fill);
  } catch (exc) {
    console.log(`error: ${exc.pyType}: ${exc.message}`);
    return;
  }
  const len = raw.length / 2;
  let leading = 0;
  while (leading < len && raw.slice(leading * 2, leading * 2 + 2) === "00") leading++;
  console.log(`hex: ${raw}`);
  console.log(`length: ${len}`);
  console.log(`leading zero bytes: ${leading}`);
  console.log(`round trip: ${bytes2int(raw) === number ? "True" : "False"}`);
}

function toInt(value) {
  let text = pyStrip(value).toLowerCase();
  if (text.startsWith("0x")) text = text.slice(2);
  if (!/^(?:[0-9a-f]{2})*$/.test(text)) {
    console.log("error: value must be an even number of hex digits");
    return;
  }
  const number = bytes2int(text);
  const minimal = int2bytes(number);
  console.log(`int: ${number}`);
  console.log(`bits: ${bitLength(number)}`);
  console.log(`minimal hex: ${minimal}`);
  console.log(`same length: ${minimal.length === text.length ? "True" : "False"}`);
}

const args = parseArgs(process.argv.slice(2));
if (args.mode === "to-bytes") toBytes(pyStrip(args.value), args.fill);
else toInt(args.value);
