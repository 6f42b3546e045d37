// Legacy color parser: a pure JavaScript port of webcolors' HTML5 legacy color parsing.
import { readFileSync } from "node:fs";
import { CSS3 } from "./names.mjs";

const HEX = "0123456789abcdefABCDEF";

function isPyWhitespace(c) {
  return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20) || c === 0x85 || c === 0xa0 || c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

function pyStrip(text) {
  const chars = [...text];
  let a = 0;
  let b = chars.length;
  while (a < b && isPyWhitespace(chars[a].codePointAt(0))) a++;
  while (b > a && isPyWhitespace(chars[b - 1].codePointAt(0))) b--;
  return chars.slice(a, b).join("");
}

function isPrintable(ch) {
  return !/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch) || ch === " ";
}

function pyRepr(text) {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (isPrintable(ch)) out += ch;
    else if (c <= 0xff) out += "\\x" + c.toString(16).padStart(2, "0");
    else if (c <= 0xffff) out += "\\u" + c.toString(16).padStart(4, "0");
    else out += "\\U" + c.toString(16).padStart(8, "0");
  }
  return out + quote;
}

function parseLegacy(input) {
  if (input === "") throw new Error("HTML5 legacy color parsing forbids empty string as a value.");
  let value = pyStrip(input);
  if (value.toLowerCase() === "transparent") throw new Error('HTML5 legacy color parsing forbids "transparent" as a value.');
  const keyword = CSS3[value.toLowerCase()];
  if (keyword) {
    return [parseInt(keyword.slice(1, 3), 16), parseInt(keyword.slice(3, 5), 16), parseInt(keyword.slice(5, 7), 16)];
  }
  let chars = [...value];
  if (chars.length === 4 && chars[0] === "#" && chars.slice(1).every((c) => HEX.includes(c))) {
    return chars.slice(1).map((c) => parseInt(c, 16) * 17);
  }
  chars = chars.flatMap((c) => (c.codePointAt(0) > 0xffff ? ["0", "0"] : [c]));
  if (chars.length > 128) chars = chars.slice(0, 128);
  if (chars[0] === "#") chars = chars.slice(1);
  chars = chars.map((c) => (HEX.includes(c) ? c : "0"));
  while (chars.length === 0 || chars.length % 3 !== 0) chars.push("0");
  let length = chars.length / 3;
  let red = chars.slice(0, length).join("");
  let green = chars.slice(length, 2 * length).join("");
  let blue = chars.slice(2 * length).join("");
  if (length > 8) {
    red = red.slice(length - 8);
    green = green.slice(length - 8);
    blue = blue.slice(length - 8);
    length = 8;
  }
  while (length > 2 && red[0] === "0" && green[0] === "0" && blue[0] === "0") {
    red = red.slice(1);
    green = green.slice(1);
    blue = blue.slice(1);
    length -= 1;
  }
  if (length > 2) {
    red = red.slice(0, 2);
    green = green.slice(0, 2);
    blue = blue.slice(0, 2);
  }
  return [parseInt(red, 16), parseInt(green, 16), parseInt(blue, 16)];
}

function serialize([r, g, b]) {
  return "#" + [r, g, b].map((v) => v.toString(16).padStart(2, "0")).join("");
}

function main() {
  const argv = process.argv.slice(2);
  const args = {};
  for (let i = 0; i + 1 < argv.length; i += 2) args[argv[i].replace(/^--/, "")] = argv[i + 1];
  const showRgb = args.rgb !== undefined && ["true", "1", "yes"].includes(pyStrip(args.rgb).toLowerCase());
  let values;
  if (args.value !== undefined) values = [args.value];
  else {
    let text = "";
    try {
      text = readFileSync(0, "utf8");
    } catch {
      text = "";
    }
    values = text.split("\n");
    if (values.length && values[values.length - 1] === "") values.pop();
  }
  const out = [];
  for (const value of values) {
    let color;
    try {
      color = parseLegacy(value);
    } catch (err) {
      out.push(`${pyRepr(value)} -> error: ${err.message}`);
      continue;
    }
    let line = `${pyRepr(value)} -> ${serialize(color)}`;
    if (showRgb) line += ` (r=${color[0]}, g=${color[1]}, b=${color[2]})`;
    out.push(line);
  }
  process.stdout.write(out.length ? out.join("\n") + "\n" : "");
}

main();
