/**
 * Reading audio in tests: what the tts service, the fake OpenAI or a browser produced, checked as
 * PCM (sample rate, not silent, plausible length).
 */

export interface DecodedWav {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  samples: Int16Array;
}

/** Reads a 16-bit PCM WAV (chunks walked, so extra chunks are skipped); throws when it is not one. */
export function parseWav(bytes: Buffer): DecodedWav {
  if (bytes.length < 12 || bytes.toString('ascii', 0, 4) !== 'RIFF' || bytes.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('Not a RIFF/WAVE file');
  }
  let format: { sampleRate: number; channels: number; bitsPerSample: number; code: number } | null = null;
  for (let at = 12; at + 8 <= bytes.length;) {
    const id = bytes.toString('ascii', at, at + 4);
    const size = bytes.readUInt32LE(at + 4);
    const body = at + 8;
    if (id === 'fmt ') {
      format = {
        code: bytes.readUInt16LE(body),
        channels: bytes.readUInt16LE(body + 2),
        sampleRate: bytes.readUInt32LE(body + 4),
        bitsPerSample: bytes.readUInt16LE(body + 14),
      };
    } else if (id === 'data') {
      if (!format || format.code !== 1 || format.bitsPerSample !== 16) throw new Error('Not 16-bit PCM');
      const end = Math.min(bytes.length, body + (size === 0xffffffff ? bytes.length : size));
      const data = Buffer.from(bytes.subarray(body, end - ((end - body) % 2)));
      return { ...format, samples: new Int16Array(data.buffer, data.byteOffset, data.length / 2) };
    }
    at = body + size + (size % 2);
  }
  throw new Error('No data chunk');
}

/** Samples of raw PCM bytes. */
export function samplesOf(pcm: Buffer): Int16Array {
  const copy = Buffer.from(pcm.subarray(0, pcm.length - (pcm.length % 2)));
  return new Int16Array(copy.buffer, copy.byteOffset, copy.length / 2);
}

/** Root mean square of samples, 0..32768 (silence is 0). */
export function rms(samples: Int16Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / samples.length);
}
