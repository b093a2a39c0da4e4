import { parseOkReplyEnvelope, parseRequestEnvelope, ReplyEnvelopeSchema, RequestEnvelopeSchema } from './codec';

/**
 * The hand-written parse gives what the schema gives (its output, unknown keys left out), and
 * nothing for what the schema refuses; of what the schema accepts, it leaves to it only what
 * `leftToSchema` says (the schema then decides).
 */
function expectSameAsSchema(
  parse: (value: unknown) => unknown,
  schema: { safeParse(value: unknown): { success: boolean; data?: unknown } },
  samples: unknown[],
  leftToSchema: (sample: unknown) => boolean,
) {
  for (const sample of samples) {
    const parsed = schema.safeParse(sample);
    const mine = parse(sample);
    if (mine !== undefined) expect({ sample, output: mine }).toEqual({ sample, output: parsed.success ? parsed.data : 'refused' });
    else if (parsed.success) expect({ sample, leftToSchema: leftToSchema(sample) }).toEqual({ sample, leftToSchema: true });
  }
}

describe('the hand-written checks of the RPC envelopes (every call), against their schemas', () => {
  const caller = { user_id: 'u1', is_anon: false, session_id: 's1', request_id: 'r1' };

  it('parseRequestEnvelope gives what the schema gives, for whatever comes', () => {
    const long = (n: number) => 'x'.repeat(n);
    const samples: unknown[] = [
      { caller, data: { text: 'pong' } },
      { caller: { ...caller, user_id: null, session_id: null }, data: null },
      { caller: { ...caller, is_anon: true }, data: [1, 2] },
      { caller: { ...caller, user_id: long(64), session_id: long(128), request_id: long(128) }, data: 'x' },
      { caller: { ...caller, user_id: long(65) }, data: {} },
      { caller: { ...caller, session_id: long(129) }, data: {} },
      { caller: { ...caller, request_id: long(129) }, data: {} },
      { caller: { ...caller, user_id: '' }, data: {} },
      { caller: { ...caller, session_id: '' }, data: {} },
      { caller: { ...caller, request_id: '' }, data: {} },
      { caller: { ...caller, is_anon: 'false' }, data: {} },
      { caller: { ...caller, user_id: 5 }, data: {} },
      { caller: { ...caller, user_id: undefined }, data: {} },
      { caller: { user_id: null, is_anon: false, session_id: null }, data: {} },
      { caller: { ...caller, extra: 1 }, data: {} },
      { caller, data: {}, extra: 1 },
      { caller },
      { caller: null, data: {} },
      { caller: [caller], data: {} },
      { data: {} },
      [caller, {}],
      null,
      'caller',
      5,
    ];
    // Without `data` (never sent so), the schema decides.
    expectSameAsSchema(parseRequestEnvelope, RequestEnvelopeSchema, samples, (sample) => !('data' in (sample as object)));
    expect(samples.filter((sample) => parseRequestEnvelope(sample) !== undefined)).toHaveLength(6);
  });

  it('parseOkReplyEnvelope gives what the schema gives for an answer, and leaves errors to it', () => {
    const samples: unknown[] = [
      { ok: true, data: { text: 'pong' } },
      { ok: true, data: null },
      { ok: true, data: [] },
      { ok: true, data: { accepted: true, heartbeat_ms: 1000 } },
      { ok: true, data: {}, extra: 1 },
      { ok: true },
      { ok: 'true', data: {} },
      { ok: 1, data: {} },
      { ok: false, error: { status: 404, detail: 'Not found', code: 'not_found' } },
      { ok: false, data: {} },
      [true, {}],
      null,
      'ok',
    ];
    // An error answer is the schema's; so is an answer without `data` (never sent so).
    expectSameAsSchema(parseOkReplyEnvelope, ReplyEnvelopeSchema, samples, (sample) => {
      const { ok } = sample as { ok: unknown };
      return ok === false || !('data' in (sample as object));
    });
    expect(samples.filter((sample) => parseOkReplyEnvelope(sample) !== undefined)).toHaveLength(5);
  });
});
