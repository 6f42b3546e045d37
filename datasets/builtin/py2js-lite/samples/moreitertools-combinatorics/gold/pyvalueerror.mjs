// Python's ValueError, raised by the ported functions and printed as "name: error: message".
export class PyValueError extends Error {}
