import { checkViewSignature, signView, viewUrl } from './signed-urls';

const SECRET = 'k'.repeat(32);
const view = { objectId: '6f1c2a4e-0b7d-4c1e-9a55-3d2f7e8b9c10', ownerId: '0e5b8d3a-7c4f-4a2b-8d6e-1f9a0b2c3d4e', expires: 1_700_000_300 };

describe('signed view links', () => {
  const signature = signView(SECRET, view);

  it('are valid until they expire, then expired', () => {
    expect(checkViewSignature(SECRET, view, signature, view.expires - 300)).toBe('valid');
    expect(checkViewSignature(SECRET, view, signature, view.expires)).toBe('valid');
    expect(checkViewSignature(SECRET, view, signature, view.expires + 1)).toBe('expired');
  });

  it('bind the file, the owner, the expiry and the key', () => {
    const now = view.expires - 10;
    expect(checkViewSignature(SECRET, { ...view, objectId: '00000000-0000-4000-8000-000000000000' }, signature, now)).toBe('invalid');
    expect(checkViewSignature(SECRET, { ...view, ownerId: '00000000-0000-4000-8000-000000000000' }, signature, now)).toBe('invalid');
    expect(checkViewSignature(SECRET, { ...view, expires: view.expires + 3600 }, signature, now)).toBe('invalid');
    expect(checkViewSignature('x'.repeat(32), view, signature, now)).toBe('invalid');
  });

  it('refuse garbage and truncated signatures without throwing', () => {
    const now = view.expires - 10;
    expect(checkViewSignature(SECRET, view, '', now)).toBe('invalid');
    expect(checkViewSignature(SECRET, view, signature.slice(0, -2), now)).toBe('invalid');
    expect(checkViewSignature(SECRET, view, '!!!not base64!!!', now)).toBe('invalid');
    // An expired link with a wrong signature is invalid, not expired: nothing is said about real links.
    expect(checkViewSignature(SECRET, view, 'AAAA', view.expires + 100)).toBe('invalid');
  });

  it('point at the view path with the expiry and the signature', () => {
    expect(viewUrl(view.objectId, view.expires, signature)).toBe(
      `/api/v1/files/view/${view.objectId}?expires=${view.expires}&signature=${signature}`,
    );
    expect(signature).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});
