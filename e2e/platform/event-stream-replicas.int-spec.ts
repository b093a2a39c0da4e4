import { connect, nanos, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import { deleteEventStream, machine, uniqueName } from '@app/testing';
import { NatsBus } from '@app/platform';

/**
 * JETSTREAM_REPLICAS: the bus passes it as `num_replicas` when it creates the event stream, and
 * never changes the count of a stream that exists (the k8s Job nats-streams may have scaled it).
 * The machine's NATS is a single node, which refuses more than one replica: that refusal is how
 * these tests see what the bus asked for.
 */
describe('the replicas of the JetStream event stream', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  let prefix: string;
  const buses: NatsBus[] = [];
  const open = async (eventReplicas?: number) => {
    const bus = await NatsBus.connect({ url: machine.natsUrl, prefix, name: 'replicas-test', eventReplicas });
    buses.push(bus);
    return bus;
  };
  const streamName = () => `EVENTS_${prefix.toUpperCase()}`;

  beforeAll(async () => {
    nc = await connect({ servers: machine.natsUrl });
    jsm = await jetstreamManager(nc);
  });

  afterAll(async () => {
    await nc.close();
  });

  beforeEach(() => {
    prefix = uniqueName('replicas');
  });

  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.drain()));
    await deleteEventStream(prefix);
  });

  it('creates the stream with the replicas asked for (1 by default)', async () => {
    await (await open()).ensureEventStream();
    const info = await jsm.streams.info(streamName());
    expect(info.config.num_replicas).toBe(1);
    expect(info.config.subjects).toEqual([`${prefix}.events.>`]);
  });

  it('asks for JETSTREAM_REPLICAS at creation (a single-node server refuses 3, and no stream is left behind)', async () => {
    const bus = await open(3);
    await expect(bus.ensureEventStream()).rejects.toThrow(/replicas/i);
    await expect(jsm.streams.info(streamName())).rejects.toThrow(/not found/i);
  });

  it('keeps the replica count of an existing stream and merges its own settings into it', async () => {
    // As the Job creates it (here at 1: all a single node can hold), with another retention.
    await jsm.streams.add({
      name: streamName(),
      subjects: [`${prefix}.events.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      max_age: nanos(3_600_000),
      duplicate_window: nanos(60_000),
      num_replicas: 1,
    });
    // A service asking for 3 must not try to scale it: the server would refuse, and the Job owns it.
    await (await open(3)).ensureEventStream();
    const info = await jsm.streams.info(streamName());
    expect(info.config.num_replicas).toBe(1);
    expect(info.config.max_age).toBe(nanos(7 * 24 * 3_600_000));
    expect(info.config.duplicate_window).toBe(nanos(120_000));
  });
});
