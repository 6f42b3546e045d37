// Ports of more-itertools 10.5.0's chunking and windowing functions, eager (arrays in, arrays out).
import { PyValueError } from "./pyvalueerror.mjs";
import { tuple } from "./pyrepr.mjs";

export function chunked(items, n) {
  const out = [];
  for (let i = 0; i < items.length; i += n) out.push(items.slice(i, i + n));
  return out;
}

export function chunkedEven(items, n) {
  const out = [];
  const minBuffer = (n - 1) * (n - 2);
  const buffer = items.slice(0, minBuffer);
  const rest = items.slice(minBuffer);
  // islice(map(buffer.append, iterable), n, None, n): a chunk leaves after consuming items n, 2n, ...
  rest.forEach((item, k) => {
    buffer.push(item);
    if (k >= n && (k - n) % n === 0) out.push(buffer.splice(0, n));
  });
  if (!buffer.length) return out;
  const length = buffer.length;
  const numLists = Math.floor(length / n) + (length % n > 0 ? 1 : 0);
  const fullSize = Math.floor(length / numLists) + (length % numLists > 0 ? 1 : 0);
  const partialSize = fullSize - 1;
  const numFull = length - partialSize * numLists;
  const partialStart = numFull * fullSize;
  if (fullSize > 0) for (let i = 0; i < partialStart; i += fullSize) out.push(buffer.slice(i, i + fullSize));
  if (partialSize > 0) for (let i = partialStart; i < length; i += partialSize) out.push(buffer.slice(i, i + partialSize));
  return out;
}

export function windowed(items, n, fillvalue = null, step = 1) {
  if (n < 0) throw new PyValueError("n must be >= 0");
  if (n === 0) return [tuple([])];
  if (step < 1) throw new PyValueError("step must be >= 1");
  const window = items.slice(0, n);
  if (!window.length) return [];
  if (window.length < n) return [tuple([...window, ...new Array(n - window.length).fill(fillvalue)])];
  const out = [tuple([...window])];
  const padding = new Array(step >= n ? n - 1 : step - 1).fill(fillvalue);
  const filler = [...items.slice(n), ...padding];
  filler.forEach((item, k) => {
    window.push(item);
    if (window.length > n) window.shift();
    if (k >= step - 1 && (k - (step - 1)) % step === 0) out.push(tuple([...window]));
  });
  return out;
}

export function distribute(n, items) {
  if (n < 1) throw new PyValueError("n must be at least 1");
  return Array.from({ length: n }, (_, index) => items.filter((_item, i) => i % n === index));
}

export function divide(n, items) {
  if (n < 1) throw new PyValueError("n must be at least 1");
  const q = Math.floor(items.length / n);
  const r = items.length % n;
  const out = [];
  let stop = 0;
  for (let i = 1; i <= n; i += 1) {
    const start = stop;
    stop += i <= r ? q + 1 : q;
    out.push(items.slice(start, stop));
  }
  return out;
}

export function splitAt(items, pred, maxsplit = -1) {
  if (maxsplit === 0) return [items.slice()];
  const out = [];
  let buf = [];
  for (let i = 0; i < items.length; i += 1) {
    if (pred(items[i])) {
      out.push(buf);
      if (maxsplit === 1) {
        out.push(items.slice(i + 1));
        return out;
      }
      buf = [];
      maxsplit -= 1;
    } else {
      buf.push(items[i]);
    }
  }
  out.push(buf);
  return out;
}
