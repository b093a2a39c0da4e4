import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** `body` is the request body as UTF-8 text; `bytes` the same body as it came (multipart uploads). */
export type RequestHandler = (request: IncomingMessage, response: ServerResponse, body: string, bytes: Buffer) => void | Promise<void>;

/**
 * A plain HTTP server on 127.0.0.1 and a free port, for the fakes of the outside world.
 * An exception in a handler answers 500 with its message, so a broken fake fails loudly.
 */
export class LocalHttpServer {
  private server: Server | undefined;
  private baseUrl: string | undefined;

  constructor(private readonly handler: RequestHandler) {}

  /** The server's address, `http://127.0.0.1:<port>`; only once started. */
  get url(): string {
    if (!this.baseUrl) throw new Error('The fake server is not started');
    return this.baseUrl;
  }

  async start(): Promise<{ url: string }> {
    if (this.baseUrl) return { url: this.baseUrl };
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        Promise.resolve()
          .then(() => {
            const bytes = Buffer.concat(chunks);
            return this.handler(request, response, bytes.toString('utf8'), bytes);
          })
          .catch((error: unknown) => {
            if (!response.headersSent)
              sendJson(response, 500, { error: 'fake_failure', message: error instanceof Error ? error.message : String(error) });
            else response.end();
          });
      });
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { url: this.baseUrl };
  }

  /** Stops listening and drops kept-alive connections, so clients fail fast afterwards. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.baseUrl = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}

export function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

/** Form fields of an `application/x-www-form-urlencoded` body (the last value of a repeated field). */
export function formFields(body: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(body));
}

/** `user:password` of an HTTP Basic Authorization header (as sent, not URL-decoded), or null. */
export function basicCredentials(request: IncomingMessage): { user: string; password: string } | null {
  const match = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { user: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
