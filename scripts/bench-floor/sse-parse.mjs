// The openai SDK's own SSE parsing against a minimal parser (issue 28): the same Responses stream
// (as FakeOpenAI writes it: one event per network chunk), parsed in memory, no socket. The SDK's
// path is the one the product takes from the body of its fetch: Stream.fromSSEResponse (a web
// ReadableStream read through its line decoder, then JSON.parse). The minimal one splits blocks on
// a blank line and parses a delta's JSON. Answers µs of CPU per event for each.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(fileURLToPath(import.meta.url), '../../..');
const { Stream } = createRequire(join(root, 'package.json'))('openai/streaming');

function events(count) {
  return Array.from(
    { length: count },
    (_, i) =>
      `event: response.output_text.delta\ndata: ${JSON.stringify({ type: 'response.output_text.delta', item_id: 'msg_0123456789abcdef', output_index: 0, content_index: 0, delta: ` t${i}`, logprobs: [], sequence_number: i + 4 })}\n\n`,
  );
}

async function viaSdk(chunks) {
  const encoder = new TextEncoder();
  const bytes = chunks.map((c) => encoder.encode(c));
  const body = new ReadableStream({
    start(controller) {
      for (const b of bytes) controller.enqueue(b);
      controller.close();
    },
  });
  let n = 0;
  for await (const event of Stream.fromSSEResponse(new Response(body), new AbortController())) if (event.delta) n++;
  return n;
}

function minimal(chunks) {
  let buffer = '';
  let n = 0;
  for (const chunk of chunks) {
    buffer += chunk;
    let end;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      if (block.startsWith('event: response.output_text.delta\n') && JSON.parse(block.slice(block.indexOf('data: ') + 6)).delta) n++;
    }
  }
  return n;
}

async function cpuPerEvent(parse, chunks, rounds) {
  await parse(chunks); // warm-up
  const before = process.cpuUsage();
  for (let i = 0; i < rounds; i++) await parse(chunks);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / (rounds * chunks.length);
}

export async function measureSseParsing({ count = 2_000, rounds = 20 } = {}) {
  const chunks = events(count);
  return { sdkUs: await cpuPerEvent(viaSdk, chunks, rounds), minimalUs: await cpuPerEvent(minimal, chunks, rounds) };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { sdkUs, minimalUs } = await measureSseParsing();
  console.log(`SSE parsing per event: openai SDK ${sdkUs.toFixed(1)} µs, minimal parser ${minimalUs.toFixed(1)} µs`);
}
