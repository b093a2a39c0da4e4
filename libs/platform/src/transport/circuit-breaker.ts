/** Settings of the circuit breakers of one RPC client. */
export interface CircuitBreakerOptions {
  /** Failures in a row (no answer in time, a stream never accepted) that open a dependency's circuit. */
  failureThreshold: number;
  /** How long an open circuit refuses calls before it lets one probe through (half-open). */
  openMs: number;
  /** Milliseconds, monotonic: the real clock unless a test gives its own. */
  now?: () => number;
  /**
   * Asks whether the dependency answers again (its health subject, with a short deadline), once an
   * open circuit's period is over: the calls that come meanwhile wait for this answer, not for a
   * user's call to time out. Without it, one call goes through as the probe.
   */
  probe?: (dependency: string) => Promise<boolean>;
}

export type CircuitState = 'closed' | 'open' | 'half-open';

/** A call let through: say how it went (exactly once; later reports are ignored). */
export interface CircuitTicket {
  /** The dependency answered (whatever it answered: an error of its own is an answer). */
  answered(): void;
  /** No answer in time: a call or a stream's acceptance timed out. */
  failed(): void;
  /**
   * Neither (the caller gave up, the bus is away, nobody serves the subject: that fails at once and
   * must not keep the circuit open once a process serves it again): frees a probe's slot.
   */
  released(): void;
}

/** Refused without asking the dependency: its circuit is open. */
export class CircuitOpenError extends Error {
  constructor(
    readonly dependency: string,
    /** Seconds until a probe may go through. */
    readonly retryAfterSeconds: number,
  ) {
    super(`The circuit of ${dependency} is open`);
    this.name = 'CircuitOpenError';
  }
}

/** A call let through; the first report counts. */
class Ticket implements CircuitTicket {
  private reported = false;

  constructor(
    private readonly circuit: Circuit,
    private readonly probe: boolean,
    private readonly verdicts: (circuit: Circuit, probe: boolean, verdict: 'answered' | 'failed' | 'released') => void,
  ) {}

  answered(): void {
    this.report('answered');
  }

  failed(): void {
    this.report('failed');
  }

  released(): void {
    this.report('released');
  }

  private report(verdict: 'answered' | 'failed' | 'released'): void {
    if (this.reported) return;
    this.reported = true;
    this.verdicts(this.circuit, this.probe, verdict);
  }
}

class Circuit {
  state: CircuitState = 'closed';
  failures = 0;
  openUntil = 0;
  probing = false;
  probe?: Promise<void>;
  readonly tripListeners = new Set<() => void>();
}

/**
 * One circuit breaker per dependency (a service, named by the first part of its subjects), so a
 * caller learns from the first failures that a service is dead or frozen and stops waiting on it:
 * after `failureThreshold` failures in a row (with no answer in between) the circuit opens, calls
 * in flight to the dependency are told at once (`onTrip`) and new ones are refused without being
 * sent, until `openMs` have passed. Then it is half-open: the `probe` asks the dependency's health
 * subject (or, without one, one call goes through while the others are still refused): answered,
 * the circuit closes; not, it opens again. An error the service
 * answers with (a 404, or a 503 because its database is away) is an answer: the service is there.
 */
export class CircuitBreakers {
  private readonly circuits = new Map<string, Circuit>();
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  state(dependency: string): CircuitState {
    const circuit = this.circuits.get(dependency);
    if (!circuit) return 'closed';
    if (circuit.state === 'open' && this.now() >= circuit.openUntil) return 'half-open';
    return circuit.state;
  }

  /** Whether a call to `dependency` would be refused right now (open, or half-open with its probe out). */
  isRefusing(dependency: string): boolean {
    const circuit = this.circuits.get(dependency);
    if (!circuit || circuit.state === 'closed') return false;
    if (circuit.state === 'open' && this.now() < circuit.openUntil) return true;
    return circuit.probing;
  }

  /**
   * Lets a call through, or throws CircuitOpenError. Past an open circuit's period, with a `probe`,
   * the call waits for the probe's answer (shared by the calls that come meanwhile).
   */
  async admit(dependency: string): Promise<CircuitTicket> {
    const circuit = this.circuitOf(dependency);
    if (circuit.state !== 'closed' && this.options.probe && this.now() >= circuit.openUntil) {
      circuit.probe ??= this.runProbe(dependency, circuit);
      await circuit.probe;
    }
    return this.admitNow(dependency, circuit);
  }

  private async runProbe(dependency: string, circuit: Circuit): Promise<void> {
    circuit.state = 'half-open';
    circuit.probing = true;
    try {
      const alive = await this.options.probe!(dependency).catch(() => false);
      if (alive) {
        circuit.failures = 0;
        circuit.state = 'closed';
      } else this.trip(circuit);
    } finally {
      circuit.probing = false;
      circuit.probe = undefined;
    }
  }

  /**
   * The usual case without a promise: a ticket at once while the circuit is closed, or undefined
   * (then `admit` decides, waiting for a probe or refusing).
   */
  admitAtOnce(dependency: string): CircuitTicket | undefined {
    const circuit = this.circuits.get(dependency);
    if (!circuit) return new Ticket(this.circuitOf(dependency), false, this.verdicts);
    return circuit.state === 'closed' ? new Ticket(circuit, false, this.verdicts) : undefined;
  }

  private admitNow(dependency: string, circuit: Circuit): CircuitTicket {
    let probe = false;
    if (circuit.state !== 'closed') {
      const now = this.now();
      if ((circuit.state === 'open' && now < circuit.openUntil) || circuit.probing) {
        const waitMs = Math.max(0, circuit.openUntil - now);
        throw new CircuitOpenError(dependency, Math.max(1, Math.ceil(waitMs / 1000)));
      }
      circuit.state = 'half-open';
      circuit.probing = probe = true;
    }
    return new Ticket(circuit, probe, this.verdicts);
  }

  /** What a ticket's report does to its circuit. */
  private readonly verdicts = (circuit: Circuit, probe: boolean, verdict: 'answered' | 'failed' | 'released') => {
    if (probe) circuit.probing = false;
    if (verdict === 'answered') {
      circuit.failures = 0;
      circuit.state = 'closed';
    } else if (verdict === 'failed') {
      circuit.failures++;
      if (probe || circuit.failures >= this.options.failureThreshold) this.trip(circuit);
    }
  };

  /**
   * Calls `listener` when the dependency's circuit opens (to stop waiting on calls in flight), until
   * `offTrip` (no unsubscribe function is made: a call's hot path).
   */
  onTrip(dependency: string, listener: () => void): void {
    this.circuitOf(dependency).tripListeners.add(listener);
  }

  /** Stops calling a listener given to `onTrip`. */
  offTrip(dependency: string, listener: () => void): void {
    this.circuits.get(dependency)?.tripListeners.delete(listener);
  }

  /** Seconds until the dependency's circuit lets a probe through (at least 1). */
  retryAfterSeconds(dependency: string): number {
    const circuit = this.circuits.get(dependency);
    const waitMs = circuit ? Math.max(0, circuit.openUntil - this.now()) : 0;
    return Math.max(1, Math.ceil(waitMs / 1000));
  }

  private trip(circuit: Circuit): void {
    const wasOpen = circuit.state === 'open' && this.now() < circuit.openUntil;
    circuit.state = 'open';
    circuit.openUntil = this.now() + this.options.openMs;
    if (wasOpen) return;
    for (const listener of [...circuit.tripListeners]) listener();
  }

  private circuitOf(dependency: string): Circuit {
    let circuit = this.circuits.get(dependency);
    if (!circuit) this.circuits.set(dependency, (circuit = new Circuit()));
    return circuit;
  }
}
