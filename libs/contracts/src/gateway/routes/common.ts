import { z } from 'zod';

/** Path ids are checked by the gateway against these before any handler runs, worded as the services word them. */
export const uuid = z.uuid({ message: 'must be an id (UUID)' });
/** A name looked up as it is, cut to the longest the service knows (a longer one is simply not found). */
export const name = (max: number) => z.string().transform((value) => value.slice(0, max));
