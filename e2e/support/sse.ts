import { request as httpRequest } from 'node:http';

export interface SseEvent {
  event: string;
  data: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- test helper: assertions check the shapes
}

export function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .map((block) => block.trim())
    .filter((block) => block && !block.startsWith(':'))
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? 'null';
      return { event, data: JSON.parse(data) };
    });
}

/** POSTs and reads the whole event stream (or the JSON error when the status is not 200). */
export async function postStream(
  url: string,
  token: string,
  body?: unknown,
): Promise<{ status: number; events: SseEvent[]; json?: unknown; headers: Headers }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, events: [], json: JSON.parse(text), headers: res.headers };
  return { status: res.status, events: parseSse(text), headers: res.headers };
}

/** Starts a stream and hangs up as soon as `until` sees the event it waits for. */
export function postStreamAndHangUp(url: string, token: string, body: unknown, until: (event: SseEvent) => boolean): Promise<SseEvent[]> {
  return new Promise((resolve, reject) => {
    const seen: SseEvent[] = [];
    let buffer = '';
    const req = httpRequest(
      url,
      { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
      (res) => {
        res.on('data', (chunk: Buffer) => {
          buffer += chunk.toString();
          const blocks = buffer.split('\n\n');
          buffer = blocks.pop() ?? '';
          for (const event of parseSse(blocks.join('\n\n') + '\n\n')) {
            seen.push(event);
            if (until(event)) {
              req.destroy();
              resolve(seen);
              return;
            }
          }
        });
        res.on('end', () => resolve(seen));
      },
    );
    req.on('error', (error) => (seen.length ? resolve(seen) : reject(error)));
    req.end(JSON.stringify(body));
  });
}
