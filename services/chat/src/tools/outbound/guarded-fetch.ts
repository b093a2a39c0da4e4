import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch, type Dispatcher } from 'undici';

/** Why an outbound request was not made, in words the model (and the log) can read. */
export class OutboundRefused extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'OutboundRefused';
  }
}

/** The resolver the guard asks (node's by default; a test gives its own to play a DNS answer). */
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

export interface OutboundPolicy {
  /**
   * Hosts the operator allows at private addresses (their own MCP servers, an intranet page):
   * `host` or `host:port`, as written in the URL. Everything else must resolve to public addresses.
   */
  allowedPrivateHosts: string[];
  resolve?: Resolve;
}

export interface GuardedRequest {
  method?: 'GET' | 'POST' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** The whole exchange, redirects included. */
  timeoutMs: number;
  /** The most bytes of body read; past it the request fails. */
  maxBytes: number;
  /** Redirects followed (each one checked like the first URL). */
  maxRedirects?: number;
}

export interface GuardedResponse {
  url: string;
  status: number;
  headers: Headers;
  body: Buffer;
}

const defaultResolve: Resolve = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** Whether an address is one the product may reach for a user or a model: public unicast only. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address); // an IPv4-mapped IPv6 address is judged as the IPv4 one
  return parsed.range() === 'unicast';
}

/**
 * Outbound HTTP for what a user or a model chooses (a page to read, a user's MCP server), guarded
 * against reaching inside: http and https only, no credentials in the URL and none forwarded, and
 * no loopback, link-local, private, unique-local, multicast or reserved address, checked after DNS
 * resolution on the connection itself (the address connected to is the address checked, so a DNS
 * answer that changes between a check and the connection cannot slip through) and again on every
 * redirect. Size and time are limited. An operator may allow named hosts at private addresses.
 */
export class GuardedFetch {
  private readonly guarded: Agent;
  private readonly open: Agent;
  private readonly allowed: Set<string>;
  private readonly resolve: Resolve;

  constructor(policy: OutboundPolicy) {
    this.allowed = new Set(policy.allowedPrivateHosts.map((h) => h.trim().toLowerCase()).filter(Boolean));
    this.resolve = policy.resolve ?? defaultResolve;
    this.guarded = new Agent({ connect: { lookup: this.lookup } });
    this.open = new Agent();
  }

  async close(): Promise<void> {
    await Promise.all([this.guarded.close(), this.open.close()]);
  }

  /** Checks a URL as the first request or a redirect would: answers the agent to use, or throws OutboundRefused. */
  async check(raw: string | URL): Promise<{ url: URL; dispatcher: Dispatcher }> {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefused('That is not a URL.');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new OutboundRefused(`Only http and https addresses can be fetched (not ${url.protocol}).`);
    if (url.username || url.password) throw new OutboundRefused('Addresses with credentials in them are not fetched.');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (this.allowed.has(url.host.toLowerCase()) || this.allowed.has(host)) return { url, dispatcher: this.open };
    if (isIP(host)) {
      if (!isPublicAddress(host)) throw new OutboundRefused(`${host} is not a public address.`);
      return { url, dispatcher: this.guarded };
    }
    // A first look, for a clear refusal; the connection's own lookup (below) is what holds.
    await this.publicAddressOf(host);
    return { url, dispatcher: this.guarded };
  }

  async fetch(raw: string, request: GuardedRequest): Promise<GuardedResponse> {
    const timeout = AbortSignal.timeout(request.timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    let next = raw;
    for (let hop = 0; ; hop++) {
      const { url, dispatcher } = await this.check(next);
      let response: Awaited<ReturnType<typeof fetch>>;
      try {
        response = await fetch(url, {
          method: hop === 0 ? (request.method ?? 'GET') : 'GET',
          headers: hop === 0 ? request.headers : undefined,
          body: hop === 0 ? request.body : undefined,
          redirect: 'manual',
          signal,
          dispatcher,
        });
      } catch (error) {
        if (timeout.aborted) throw new OutboundRefused(`No answer within ${seconds(request.timeoutMs)}.`);
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof OutboundRefused) throw cause;
        throw error;
      }
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        if (hop >= (request.maxRedirects ?? 5)) throw new OutboundRefused('Too many redirects.');
        next = new URL(location, url).toString();
        continue;
      }
      return {
        url: url.toString(),
        status: response.status,
        headers: response.headers as unknown as Headers,
        body: await readCapped(response, request.maxBytes, timeout, request.timeoutMs),
      };
    }
  }

  /**
   * A `fetch` for a client library (the MCP SDK) with the same guard: every URL and redirect
   * checked, at most `maxBytes` read from any one answer (streams included: past it the body
   * errors), and no cookie or credential carried to another origin on a redirect.
   */
  fetchLike(maxBytes: number): (input: string | URL, init?: RequestInit) => Promise<Response> {
    return async (input, init = {}) => {
      let next = input.toString();
      let request = init;
      for (let hop = 0; ; hop++) {
        const { url, dispatcher } = await this.check(next);
        let response: Awaited<ReturnType<typeof fetch>>;
        try {
          response = await fetch(url, { ...(request as Parameters<typeof fetch>[1]), redirect: 'manual', dispatcher });
        } catch (error) {
          const cause = (error as { cause?: unknown }).cause;
          if (cause instanceof OutboundRefused) throw cause;
          throw error;
        }
        const location = response.headers.get('location');
        if (response.status >= 300 && response.status < 400 && location) {
          await response.body?.cancel();
          if (hop >= 5) throw new OutboundRefused('Too many redirects.');
          const target = new URL(location, url);
          // A redirect elsewhere carries no credentials; only 307/308 keep the method and body.
          const keep = response.status === 307 || response.status === 308;
          const headers = new Headers(request.headers);
          if (target.origin !== url.origin) for (const name of ['authorization', 'cookie', 'proxy-authorization']) headers.delete(name);
          request = keep ? { ...request, headers } : { method: 'GET', headers, signal: request.signal };
          next = target.toString();
          continue;
        }
        const declared = Number(response.headers.get('content-length'));
        if (Number.isFinite(declared) && declared > maxBytes) {
          await response.body?.cancel();
          throw new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`);
        }
        return new Response(response.body ? capped(response.body as ReadableStream<Uint8Array>, maxBytes) : null, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers as unknown as Headers,
        });
      }
    };
  }

  private async publicAddressOf(hostname: string): Promise<LookupAddress> {
    let addresses: LookupAddress[];
    try {
      addresses = await this.resolve(hostname);
    } catch {
      throw new OutboundRefused(`${hostname} could not be resolved.`);
    }
    if (!addresses.length) throw new OutboundRefused(`${hostname} could not be resolved.`);
    // Every address must be public: a name that also points inside is refused.
    const inside = addresses.find((a) => !isPublicAddress(a.address));
    if (inside) throw new OutboundRefused(`${hostname} resolves to ${inside.address}, which is not a public address.`);
    return addresses[0];
  }

  /** The connection's DNS lookup (net.connect's `lookup` option): only public addresses are connected to. */
  private readonly lookup = (
    hostname: string,
    options: { all?: boolean } | number | undefined,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    this.publicAddressOf(hostname).then(
      (address) => {
        if (typeof options === 'object' && options?.all) callback(null, [address]);
        else callback(null, address.address, address.family);
      },
      (error: Error) => callback(error, ''),
    );
  };
}

async function readCapped(
  response: Awaited<ReturnType<typeof fetch>>,
  maxBytes: number,
  timeout: AbortSignal,
  timeoutMs: number,
): Promise<Buffer> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`);
      }
      chunks.push(Buffer.from(chunk));
    }
  } catch (error) {
    if (error instanceof OutboundRefused) throw error;
    if (timeout.aborted) throw new OutboundRefused(`No answer within ${seconds(timeoutMs)}.`);
    throw error;
  }
  return Buffer.concat(chunks);
}

const seconds = (ms: number) => `${ms < 1_000 ? (ms / 1_000).toFixed(1) : Math.round(ms / 1_000)} s`;

/** A body that errors once more than `maxBytes` have come through. */
function capped(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new OutboundRefused(`The answer is larger than ${maxBytes} bytes.`));
        else controller.enqueue(chunk);
      },
    }),
  );
}
