import { LlmError } from '../llm/llm-error';
import { failureOf, ReplyStopped, SHUTDOWN_DETAIL, StorageFailure } from './reply-failure';

const aborted = (reason?: unknown) => {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
};
const live = new AbortController().signal;

describe('why a reply ended early', () => {
  it("is the model's failure, in the provider's words for the user", () => {
    const cause = new Error('503 upstream');
    expect(failureOf(new LlmError('unavailable', 'The model could not be reached. Please try again.', { cause }), live)).toEqual({
      kind: 'model',
      detail: 'The model could not be reached. Please try again.',
      error: cause,
    });
  });

  it('is a storage failure when the database failed, never the model', () => {
    const cause = new Error('Connection terminated');
    expect(failureOf(new StorageFailure('The reply could not be saved. Please try again.', { cause }))).toEqual({
      kind: 'storage',
      detail: 'The reply could not be saved. Please try again.',
      error: cause,
    });
  });

  it('is the reason the reply was aborted for, whatever was thrown meanwhile', () => {
    const thrown = new LlmError('unavailable', 'The model failed to answer. Please try again.');
    expect(failureOf(thrown, aborted(new LlmError('timeout', 'The model stopped answering.')))).toMatchObject({
      kind: 'model',
      detail: 'The model stopped answering.',
    });
    expect(failureOf(thrown, aborted(new ReplyStopped(SHUTDOWN_DETAIL)))).toMatchObject({ kind: 'stopped', detail: SHUTDOWN_DETAIL });
    expect(failureOf(new StorageFailure('x'), aborted(new Error('stopped')))).toMatchObject({
      kind: 'stopped',
      detail: 'The reply was stopped.',
    });
    expect(failureOf(undefined, aborted())).toMatchObject({ kind: 'stopped', detail: 'The reply was stopped.' });
  });

  it('is a fault of ours, said plainly, for anything else', () => {
    const bug = new TypeError('x is undefined');
    expect(failureOf(bug, live)).toEqual({
      kind: 'internal',
      detail: 'Something went wrong while writing the reply. Please try again.',
      error: bug,
    });
  });
});
