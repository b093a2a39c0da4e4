import { createHmac, timingSafeEqual } from 'node:crypto';
import { PRODUCT_CONSTANTS } from '@app/contracts';

/** What a signed link stands for: viewing one file of one owner until a time (unix seconds). */
export interface SignedView {
  objectId: string;
  ownerId: string;
  expires: number;
}

export type SignatureCheck = 'valid' | 'expired' | 'invalid';

function mac(secret: string, view: SignedView): Buffer {
  return createHmac('sha256', secret).update(`files.view\n${view.objectId}\n${view.expires}\n${view.ownerId}`).digest();
}

/** HMAC-SHA256 over the purpose, the object id, the expiry and the owner, as base64url. */
export function signView(secret: string, view: SignedView): string {
  return mac(secret, view).toString('base64url');
}

/** Checks a link's signature (in constant time) and its expiry. */
export function checkViewSignature(secret: string, view: SignedView, signature: string, nowSeconds: number): SignatureCheck {
  const given = Buffer.from(signature, 'base64url');
  const expected = mac(secret, view);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return nowSeconds > view.expires ? 'expired' : 'valid';
}

/** The root-relative link the web client opens: `GET /api/v1/files/view/{id}?expires=..&signature=..`. */
export function viewUrl(objectId: string, expires: number, signature: string): string {
  return `${PRODUCT_CONSTANTS.fileViewCookiePath}/${encodeURIComponent(objectId)}?expires=${expires}&signature=${signature}`;
}
