/** Text-to-speech constants (spec section 9). */
export const TTS = {
  /** The shortest chunk sent to the voice, unless the user's AI voice config says otherwise. */
  minChars: 100,
  /** A sentence end is looked for again every 100 ms, 30 times, before the text is forced out. */
  boundaryRetryMs: 100,
  boundaryRetries: 30,
  /** At least 50 ms of silence between two chunks. */
  minGapMs: 50,
  /** Each chunk's loudest sample is brought to 0.8. */
  peak: 0.8,
  /** The provider's request ids kept per message. */
  requestIdsPerMessage: 3,
  /** PCM answers: signed 16-bit little-endian mono at 24,000 Hz. */
  pcmSampleRate: 24_000,
  /** The API's longest text per request. */
  maxTextChars: 4_096,
} as const;
