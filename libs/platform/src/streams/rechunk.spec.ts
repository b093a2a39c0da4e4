import { rechunk } from './rechunk';

async function collect(source: Buffer[], size: number): Promise<number[]> {
  const out: number[] = [];
  for await (const piece of rechunk(
    (async function* () {
      yield* source;
    })(),
    size,
  ))
    out.push(piece.length);
  return out;
}

describe('rechunk', () => {
  it('regroups any pieces into exact sizes, the rest last', async () => {
    expect(await collect([Buffer.alloc(3), Buffer.alloc(10), Buffer.alloc(1)], 4)).toEqual([4, 4, 4, 2]);
    expect(await collect([Buffer.alloc(8)], 4)).toEqual([4, 4]);
    expect(await collect([], 4)).toEqual([]);
  });

  it('keeps the bytes in order', async () => {
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    const pieces: Buffer[] = [];
    for await (const piece of rechunk(
      (async function* () {
        for (let i = 0; i < 1000; i += 7) yield bytes.subarray(i, i + 7);
      })(),
      64,
    ))
      pieces.push(piece);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
  });
});
