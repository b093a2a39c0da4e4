import { parsePhoneNumberFromString, type NumberType } from 'libphonenumber-js/max';

/** Why a number is never texted, or null when it may be. */
export type DestinationRefusal = 'own_number' | 'blocked_region' | 'not_mobile';

/**
 * Country calling codes that are not a country: satellite phones (+881, Inmarsat +870), the
 * international networks (+882, +883), global freephone and shared-cost numbers (+800, +808, +878,
 * +979, +888). A text to one costs many times an ordinary one, and nobody signs up from one.
 */
const NON_GEOGRAPHIC = /^\+(800|808|870|878|881|882|883|888|979)/;

/** Number types that cannot receive a text, or would bill the sender as a premium call. */
const NOT_TEXTABLE: ReadonlySet<NumberType> = new Set<NumberType>([
  'FIXED_LINE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'UAN',
  'VOICEMAIL',
  'PAGER',
]);

export interface DestinationPolicy {
  /** The service's own numbers (the assistant's, the group pool): texting them would loop. */
  ownNumbers: readonly string[];
  /** ISO countries where the service is not offered. */
  blockedCountries: readonly string[];
}

/**
 * Whether the product may text this number: never its own numbers, a region where it is not
 * offered, a satellite or international-network number, or a range that is not mobile (a landline,
 * toll-free, premium rate...). A number whose type the metadata cannot tell (a new range) may be
 * texted: the per-number and per-day budgets still bound it.
 */
export function destinationRefusal(phone: string, policy: DestinationPolicy): DestinationRefusal | null {
  if (policy.ownNumbers.includes(phone)) return 'own_number';
  if (NON_GEOGRAPHIC.test(phone)) return 'not_mobile';
  const parsed = parsePhoneNumberFromString(phone);
  if (parsed?.country && policy.blockedCountries.includes(parsed.country)) return 'blocked_region';
  const type = parsed?.isValid() ? parsed.getType() : undefined;
  if (type && NOT_TEXTABLE.has(type)) return 'not_mobile';
  return null;
}
