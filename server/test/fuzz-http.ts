import { connect } from 'node:net';

/**
 * HTTP/1.1 over a bare socket, for the fuzz: fetch and node:http refuse the very requests
 * it must send (raw bytes and spaces in the path, CR/LF or non-ASCII in header values,
 * bodies that are not what their Content-Length says). One request per connection
 * (`Connection: close`): the answer ends where the server closes.
 */
export interface RawRequest {
  method: string;
  /** The request target as bytes: path and query, sent as they are. */
  target: string | Buffer;
  headers: [string, string | Buffer][];
  body?: Buffer;
}

export interface RawAnswer {
  status: number;
  /** Header names in lower case, in the order sent. */
  headers: [string, string][];
  body: Buffer;
  /** The answer's bytes up to the body, for messages. */
  head: string;
}

export function header(answer: RawAnswer, name: string): string | undefined {
  return answer.headers.find(([n]) => n === name.toLowerCase())?.[1];
}

/** The request's bytes: request line, Host, the headers given, Content-Length when there is a body. */
export function requestBytes(host: string, request: RawRequest): Buffer {
  const parts: Buffer[] = [Buffer.from(`${request.method} `), Buffer.from(request.target), Buffer.from(` HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n`)];
  for (const [name, value] of request.headers) parts.push(Buffer.from(`${name}: `), Buffer.from(value), Buffer.from('\r\n'));
  const named = (n: string) => request.headers.some(([h]) => h.toLowerCase() === n);
  if (request.body && !named('content-length') && !named('transfer-encoding')) parts.push(Buffer.from(`Content-Length: ${request.body.length}\r\n`));
  parts.push(Buffer.from('\r\n'));
  if (request.body) parts.push(request.body);
  return Buffer.concat(parts);
}

/** Sends one request; rejects when no complete answer came within `timeoutMs` (a hang). */
export function send(base: string, request: RawRequest, timeoutMs = 30_000): Promise<RawAnswer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const chunks: Buffer[] = [];
    let settled = false;
    const finish = (error?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (error) return reject(error);
      try {
        resolve(parseAnswer(Buffer.concat(chunks), request.method));
      } catch (e) {
        reject(e);
      }
    };
    const timer = setTimeout(() => finish(new Error(`no answer in ${timeoutMs} ms (hung)`)), timeoutMs);
    socket.on('data', (d) => {
      chunks.push(d);
      // Done as soon as the whole answer is in, even when the server keeps reading our body.
      if (complete(Buffer.concat(chunks), request.method)) finish();
    });
    socket.on('end', () => finish());
    // The server may close while we still write a body it refused: what it answered counts.
    socket.on('error', (error) => (chunks.length ? finish() : finish(error)));
    // Not end(): Node's server drops a request whose client half-closed before the answer.
    socket.on('connect', () => socket.write(requestBytes(`${url.hostname}:${url.port}`, request)));
  });
}

function complete(bytes: Buffer, method: string): boolean {
  try {
    const at = bytes.indexOf('\r\n\r\n');
    if (at < 0) return false;
    const answer = parseAnswer(bytes, method, true);
    return answer !== null;
  } catch {
    return false;
  }
}

function parseAnswer(bytes: Buffer, method: string, strict = false): RawAnswer {
  const at = bytes.indexOf('\r\n\r\n');
  if (at < 0) throw new Error(`not an HTTP answer: ${JSON.stringify(bytes.subarray(0, 200).toString('latin1'))}`);
  const head = bytes.subarray(0, at).toString('latin1');
  const [statusLine, ...lines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!match) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers = lines.map((line): [string, string] => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
  });
  const status = Number(match[1]);
  let rest = bytes.subarray(at + 4);
  const get = (name: string) => headers.find(([n]) => n === name)?.[1];
  if (method === 'HEAD' || status === 204 || status === 304) rest = Buffer.alloc(0);
  else if (/chunked/i.test(get('transfer-encoding') ?? '')) rest = dechunk(rest, strict);
  else if (get('content-length') !== undefined) {
    const length = Number(get('content-length'));
    if (strict && rest.length < length) throw new Error('incomplete');
    rest = rest.subarray(0, length);
  } else if (strict) throw new Error('ends at close');
  return { status, headers, body: rest, head };
}

function dechunk(bytes: Buffer, strict: boolean): Buffer {
  const out: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf('\r\n', at);
    if (end < 0) break;
    const size = parseInt(bytes.subarray(at, end).toString('latin1'), 16);
    if (!Number.isFinite(size)) break;
    if (size === 0) return Buffer.concat(out);
    out.push(bytes.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  if (strict) throw new Error('incomplete');
  return Buffer.concat(out);
}
