import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiTranscriber } from './transcriber';

const access = (port: number) => ({ baseURL: `http://127.0.0.1:${port}/v1`, apiKey: 'not-needed' });

describe('OpenAiTranscriber.available', () => {
  let server: Server;
  let port: number;
  const asked: string[] = [];
  beforeAll(async () => {
    // A whisper server that knows only its transcription path: a 404 elsewhere still says it runs.
    server = createServer((request, response) => {
      asked.push(request.url ?? '');
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('a server looked for is available while its address answers HTTP, whatever the status', async () => {
    expect(await new OpenAiTranscriber('openai-compatible', 'm', access(port), 5_000, true).available()).toBe(true);
    expect(asked).toEqual(['/v1/models']);
  });

  it('a server looked for that does not answer is not available', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await new OpenAiTranscriber('openai-compatible', 'm', access(closedPort), 5_000, true).available()).toBe(false);
  });

  it('a configured provider is taken as available without asking it', async () => {
    asked.length = 0;
    expect(await new OpenAiTranscriber('openai-compatible', 'm', access(port), 5_000).available()).toBe(true);
    expect(asked).toEqual([]);
  });
});
