import { CHAT_STOP_SUBJECT } from '@app/contracts/chat';
import { encode } from '@app/platform';
import { FakeBroadcastBus } from '@app/platform/testing';
import { StopRegistry } from './stop-registry';

describe('StopRegistry', () => {
  it('stops the reply to the message named in a broadcast, and only that one', async () => {
    const bus = new FakeBroadcastBus();
    const registry = new StopRegistry(bus);
    await registry.onApplicationBootstrap();
    expect(bus.subscribers(CHAT_STOP_SUBJECT)).toBe(1);
    const mine = registry.track('m1');
    const other = registry.track('m2');
    registry.broadcast('m1');
    expect(mine.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
  });

  it('ignores what is not a stop (not JSON, no id, an id that is not text) without throwing into the bus', async () => {
    const bus = new FakeBroadcastBus();
    const registry = new StopRegistry(bus);
    await registry.onApplicationBootstrap();
    const running = registry.track('m1');
    for (const data of [new TextEncoder().encode('not json{'), encode({}), encode({ message_id: 42 }), new Uint8Array()]) {
      expect(() => bus.publish(CHAT_STOP_SUBJECT, data)).not.toThrow();
    }
    expect(running.signal.aborted).toBe(false);
  });

  it('aborts what is still running at shutdown, and a released reply is no longer reachable', async () => {
    const bus = new FakeBroadcastBus();
    const registry = new StopRegistry(bus);
    await registry.onApplicationBootstrap();
    const released = registry.track('m1');
    registry.release('m1', released);
    registry.broadcast('m1');
    expect(released.signal.aborted).toBe(false);
    const running = registry.track('m2');
    await registry.onApplicationShutdown();
    expect(running.signal.aborted).toBe(true);
  });
});
