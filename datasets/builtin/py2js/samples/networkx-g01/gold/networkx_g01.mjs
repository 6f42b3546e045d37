// Port of networkx-g01: degree statistics of an undirected graph read as an edge list.
import { readFileSync } from "node:fs";

const PY_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x2001,
  0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f,
  0x205f, 0x3000,
]);
const isSpace = (ch) => PY_SPACE.has(ch.codePointAt(0));

function pySplit(s) {
  const out = [];
  let cur = "";
  for (const ch of s) {
    if (isSpace(ch)) {
      if (cur) out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur) out.push(cur);
  return out;
}

function pyStrip(s) {
  const cps = Array.from(s);
  let a = 0;
  let b = cps.length;
  while (a < b && isSpace(cps[a])) a++;
  while (b > a && isSpace(cps[b - 1])) b--;
  return cps.slice(a, b).join("");
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

function cmpCodePoints(a, b) {
  const x = Array.from(a, (c) => c.codePointAt(0));
  const y = Array.from(b, (c) => c.codePointAt(0));
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

class Graph {
  constructor() {
    this.adj = new Map();
  }
  addNode(n) {
    if (!this.adj.has(n)) this.adj.set(n, new Map());
  }
  addEdge(u, v) {
    this.addNode(u);
    this.addNode(v);
    this.adj.get(u).set(v, true);
    this.adj.get(v).set(u, true);
  }
  edges() {
    const seen = new Set();
    const out = [];
    for (const [u, nbrs] of this.adj) {
      for (const v of nbrs.keys()) if (!seen.has(v)) out.push([u, v]);
      seen.add(u);
    }
    return out;
  }
  degree() {
    const out = [];
    for (const [u, nbrs] of this.adj) out.push([u, nbrs.size + (nbrs.has(u) ? 1 : 0)]);
    return out;
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

function main() {
  const args = parseArgs(process.argv.slice(2));
  const out = [];
  const print = (s) => out.push(s + "\n");
  const finish = () => process.stdout.write(out.join(""));
  const top = args.top !== undefined ? parseInt(args.top.trim(), 10) : 3;
  const G = new Graph();
  if (args.edges !== undefined) {
    for (let item of args.edges.split(",")) {
      item = pyStrip(item);
      if (!item) continue;
      const parts = item.split("-");
      if (parts.length === 1) G.addNode(parts[0]);
      else if (parts.length === 2 && parts[0] && parts[1]) G.addEdge(parts[0], parts[1]);
      else {
        print(`error: bad edge ${pyRepr(item)}`);
        return finish();
      }
    }
  } else {
    const lines = readFileSync(0, "utf8").replace(/\r\n?/g, "\n").split("\n");
    for (let i = 0; i < lines.length; i++) {
      const parts = pySplit(lines[i]);
      if (!parts.length || parts[0].startsWith("#")) continue;
      if (parts.length > 2) {
        print(`error: line ${i + 1}: expected 1 or 2 node names, got ${parts.length}`);
        return finish();
      }
      if (parts.length === 1) G.addNode(parts[0]);
      else G.addEdge(parts[0], parts[1]);
    }
  }
  if (top < 0) {
    print("error: --top must not be negative");
    return finish();
  }
  const n = G.adj.size;
  const edges = G.edges();
  const m = edges.length;
  const loops = edges.filter(([u, v]) => u === v).length;
  print(`nodes: ${n}`);
  print(`edges: ${m} (${loops} self-loop(s))`);
  const density = m === 0 || n <= 1 ? 0 : (m / (n * (n - 1))) * 2;
  print(`density: ${density.toFixed(6)}`);
  const degrees = G.degree();
  const counts = new Map();
  for (const [, d] of degrees) counts.set(d, (counts.get(d) ?? 0) + 1);
  const maxDeg = degrees.length ? Math.max(...degrees.map(([, d]) => d)) : -1;
  const hist = [];
  for (let d = 0; d <= maxDeg; d++) hist.push(counts.get(d) ?? 0);
  print(`degree histogram: [${hist.join(", ")}]`);
  hist.forEach((count, d) => {
    if (count) print(`  degree ${d}: ${count} node(s) ${"#".repeat(count)}`);
  });
  const ranked = [...degrees].sort((a, b) => b[1] - a[1] || cmpCodePoints(a[0], b[0])).slice(0, top);
  print("top: " + (ranked.map(([node, d]) => `${node}=${d}`).join(", ") || "(none)"));
  finish();
}

main();
