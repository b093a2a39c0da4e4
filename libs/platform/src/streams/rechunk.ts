/** Regroups a byte stream into pieces of exactly `size` bytes (the last one may be shorter). */
export async function* rechunk(source: AsyncIterable<Uint8Array | string>, size: number): AsyncGenerator<Buffer> {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  for await (const piece of source) {
    let chunk = typeof piece === 'string' ? Buffer.from(piece) : Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
    while (pendingBytes + chunk.length >= size) {
      const take = size - pendingBytes;
      pending.push(chunk.subarray(0, take));
      yield Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      chunk = chunk.subarray(take);
    }
    if (chunk.length) {
      pending.push(Buffer.from(chunk)); // a copy: the source may reuse its buffer
      pendingBytes += chunk.length;
    }
  }
  if (pendingBytes) yield Buffer.concat(pending);
}
