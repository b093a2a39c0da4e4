import { Injectable, type PipeTransform } from '@nestjs/common';
import { parseContract } from '@app/contracts';
import type { z } from 'zod';

/**
 * Validates a body, a query or params against a contract schema (unsafe text refused first, see
 * parseContract); failures become 422 `{detail}` naming the field.
 */
@Injectable()
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    return parseContract(this.schema, value ?? {});
  }
}
