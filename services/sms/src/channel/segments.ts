/**
 * SMS segments: the one counter the sms service and the web client share lives in the contracts
 * (`@app/contracts/sms`, segments.ts); the channel's call sites import it from here.
 */
export { countSegments, fitToSegments, isGsm7, SEGMENT_LIMITS, toGsm7, type SegmentCount, type SmsEncoding } from '@app/contracts/sms';
