import { BusUnavailableError, type Bus } from '../transport/bus';

type BusMessage = { data: Uint8Array; headers: Record<string, string> };

/** The bus's plain publish and subscribe, as every replica hears them, and a connection that can be lost. */
export class FakeBroadcastBus implements Pick<Bus, 'subscribe' | 'publish' | 'onConnectionLost' | 'connected'> {
  connected = true;
  private readonly handlers = new Map<string, Set<(message: BusMessage) => void>>();
  private readonly lossListeners = new Set<(error: BusUnavailableError) => void>();

  async subscribe(subject: string, handler: (message: BusMessage) => void) {
    const handlers = this.handlers.get(subject) ?? this.handlers.set(subject, new Set()).get(subject)!;
    handlers.add(handler);
    return { close: async () => void handlers.delete(handler) };
  }

  publish(subject: string, data: Uint8Array): void {
    for (const handler of this.handlers.get(subject) ?? []) handler({ data, headers: {} });
  }

  onConnectionLost(listener: (error: BusUnavailableError) => void): () => void {
    this.lossListeners.add(listener);
    return () => this.lossListeners.delete(listener);
  }

  /** The connection is lost (until `reconnect`): every listener hears it. */
  loseConnection(): void {
    this.connected = false;
    for (const listener of this.lossListeners) listener(new BusUnavailableError());
  }

  reconnect(): void {
    this.connected = true;
  }

  /** How many handlers listen on a subject. */
  subscribers(subject: string): number {
    return this.handlers.get(subject)?.size ?? 0;
  }

  /** How many listen for the connection being lost. */
  connectionListeners(): number {
    return this.lossListeners.size;
  }
}
