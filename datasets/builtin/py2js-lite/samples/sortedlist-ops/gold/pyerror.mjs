// A Python exception as data: its class name and message, printed as "Kind: message".
export class PyError extends Error {
  constructor(kind, message) {
    super(message);
    this.kind = kind;
  }
}
