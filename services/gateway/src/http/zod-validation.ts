import { Injectable, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';

/** Validates a body, a query or params against a contract schema; failures become 422 `{detail}`. */
@Injectable()
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.output<S> {
    return this.schema.parse(value ?? {});
  }
}
