import { connect } from 'node:net';

/** An HTTP answer read off a socket by hand. */
export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The bytes as they came (status line, headers, body). */
  raw: string;
}

/** Parses the first HTTP/1.1 answer in `raw` (Content-Length bodies, or everything to the close). */
export function parseRawResponse(raw: string): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`Not an HTTP answer: ${JSON.stringify(raw.slice(0, 200))}`);
  const [statusLine, ...lines] = raw.slice(0, end).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.slice(end + 4);
  const length = headers['content-length'];
  return { status, headers, body: length === undefined ? rest : Buffer.from(rest).subarray(0, Number(length)).toString(), raw };
}

/**
 * Writes bytes to the server as they are (requests no HTTP client would send: headers over the
 * limit, a body that stops mid-part, no HTTP at all) and reads what comes back until the server
 * closes the connection or `timeoutMs` passes.
 */
export function rawRequest(baseUrl: string, payload: string | Buffer, timeoutMs = 5_000): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(payload));
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      const raw = Buffer.concat(chunks).toString();
      try {
        resolve(parseRawResponse(raw));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', () => undefined); // a reset after the answer: what came is what counts
  });
}
