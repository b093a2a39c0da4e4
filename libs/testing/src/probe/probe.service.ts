import { Controller, Injectable, Module } from '@nestjs/common';
import {
  applyOnce,
  DomainError,
  EventHandler,
  EventPublisher,
  RpcHandler,
  type EventInput,
  type RpcInput,
  sqlMigration,
  type ServiceDefinition,
} from '@app/platform';
import { ERROR_CODES, STATUS_BY_CODE } from '@app/contracts';
import { Observable } from 'rxjs';
import { DataSource } from 'typeorm';
import { PROBE } from './probe.contracts';

const CreateProbeNotes1763700000001 = sqlMigration('CreateProbeNotes1763700000001', {
  up: ['CREATE TABLE probe_note (id serial PRIMARY KEY, note text NOT NULL, event_id text NOT NULL)'],
  down: ['DROP TABLE probe_note'],
});

@Injectable()
class ProbeLogic {
  private readonly attempts = new Map<string, number>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: EventPublisher,
  ) {}

  fail(kind: 'domain' | 'unexpected', status = 409, detail = 'Probe failure'): never {
    if (kind === 'unexpected') throw new Error('secret internal detail that must not leak');
    const code = ERROR_CODES.find((c) => STATUS_BY_CODE[c] === status) ?? 'bad_request';
    throw new DomainError(code, detail, status);
  }

  async publish(note: string, failTimes: number, eventId?: string): Promise<string> {
    return this.events.publish(PROBE.pinged, { note, fail_times: failTimes }, { eventId });
  }

  async apply(eventId: string, note: string, failTimes: number): Promise<void> {
    const attempt = (this.attempts.get(eventId) ?? 0) + 1;
    this.attempts.set(eventId, attempt);
    if (attempt <= failTimes) throw new Error(`probe: failing delivery ${attempt} on purpose`);
    await applyOnce(this.dataSource, 'probe', eventId, async (manager) => {
      await manager.query('INSERT INTO probe_note (note, event_id) VALUES ($1, $2)', [note, eventId]);
    });
  }

  async received() {
    const notes: { note: string; event_id: string }[] = await this.dataSource.query('SELECT note, event_id FROM probe_note ORDER BY id');
    return { notes, attempts: Object.fromEntries(this.attempts) };
  }
}

@Controller()
class ProbeHandlers {
  constructor(private readonly logic: ProbeLogic) {}

  @RpcHandler(PROBE.echo)
  echo({ caller, data }: RpcInput<typeof PROBE.echo>) {
    return { text: data.text, request_id: caller.request_id, user_id: caller.user_id };
  }

  @RpcHandler(PROBE.fail)
  fail({ data }: RpcInput<typeof PROBE.fail>) {
    return this.logic.fail(data.kind, data.status, data.detail);
  }

  @RpcHandler(PROBE.slow)
  async slow({ data }: RpcInput<typeof PROBE.slow>) {
    await new Promise((resolve) => setTimeout(resolve, data.ms));
    return { waited_ms: data.ms };
  }

  @RpcHandler(PROBE.stream)
  stream({ data }: RpcInput<typeof PROBE.stream>) {
    return new Observable<{ index: number }>((subscriber) => {
      for (let index = 0; index < data.count; index++) {
        if (index === data.fail_at) return subscriber.error(new DomainError('conflict', `failed at ${index}`));
        subscriber.next({ index });
      }
      subscriber.complete();
    });
  }

  @RpcHandler(PROBE.publish)
  async publish({ data }: RpcInput<typeof PROBE.publish>) {
    return { event_id: await this.logic.publish(data.note, data.fail_times, data.event_id) };
  }

  @RpcHandler(PROBE.received)
  received() {
    return this.logic.received();
  }

  @EventHandler(PROBE.pinged)
  onPinged({ event_id, payload }: EventInput<typeof PROBE.pinged>) {
    return this.logic.apply(event_id, payload.note, payload.fail_times);
  }
}

@Module({ controllers: [ProbeHandlers], providers: [ProbeLogic] })
class ProbeModule {}

export const probeService: ServiceDefinition = {
  name: 'probe',
  module: ProbeModule,
  entities: [],
  migrations: [CreateProbeNotes1763700000001],
};
