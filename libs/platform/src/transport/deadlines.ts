/**
 * Something waiting for an answer until a deadline (a request on the bus). Its two fields belong to
 * `Deadlines`: where it is queued.
 */
export abstract class Waiting {
  /** @internal The lane it waits in, while it waits. */
  lane?: Lane;
  /** @internal Its position in the lane. */
  slot = 0;

  /**
   * The deadline passed before `Deadlines.cancel`: called once, the waiting is over. Called after
   * the input that came by then was read, so it must do nothing for a wait answered meanwhile.
   */
  abstract expire(): void;
}

const expireAll = (due: Waiting[]): void => {
  for (const item of due) item.expire();
};

/**
 * The waits of one duration: they end in the order they began, so a queue with one timer (for the
 * oldest) holds them all. Cancelled entries are left empty and skipped.
 */
class Lane {
  readonly at: number[] = [];
  readonly items: (Waiting | undefined)[] = [];
  /** Position of the oldest entry still in the arrays. */
  head = 0;
  /** Slot of `items[0]` (positions move when the arrays are compacted; slots do not). */
  base = 0;
  live = 0;
  timer?: NodeJS.Timeout;

  constructor(
    readonly ms: number,
    private readonly now: () => number,
    /** Called when the timer fired with nothing left: the lane is forgotten (a new one is made when needed). */
    private readonly retire: (lane: Lane) => void,
  ) {}

  add(item: Waiting): void {
    item.lane = this;
    item.slot = this.base + this.items.length;
    this.at.push(this.now() + this.ms);
    this.items.push(item);
    if (this.live++ === 0) this.timer?.ref();
    // Armed for an older (earlier) deadline, it re-arms itself for the next one when it fires.
    this.timer ??= setTimeout(this.fire, this.ms);
  }

  cancel(item: Waiting): void {
    const position = item.slot - this.base;
    item.lane = undefined;
    if (this.items[position] !== item) return;
    this.items[position] = undefined;
    this.live--;
    if (position === this.head) this.skipEmpty();
    // Nothing left waiting: the timer (still armed, re-armed when it fires) must not hold the process.
    if (this.live === 0) this.timer?.unref();
  }

  private readonly fire = (): void => {
    this.timer = undefined;
    const now = this.now();
    let due: Waiting[] | undefined;
    while (this.head < this.items.length && this.at[this.head] <= now) {
      const item = this.items[this.head];
      this.items[this.head++] = undefined;
      if (!item) continue;
      item.lane = undefined;
      this.live--;
      (due ??= []).push(item);
    }
    // Expired after this turn's input is read: a timer that fires late (the event loop was busy)
    // runs before the I/O that came meanwhile, and an answer already here must win over its
    // deadline (a stream start taken for unanswered would be asked for twice). `expire` ignores a
    // wait that was answered meanwhile.
    if (due) setImmediate(expireAll, due);
    this.skipEmpty();
    if (this.head < this.items.length) {
      this.timer = setTimeout(this.fire, Math.max(1, Math.ceil(this.at[this.head] - now)));
      if (this.live === 0) this.timer.unref();
    } else this.retire(this);
  };

  /** Moves the head past cancelled entries, and drops what is behind it once that is most of the arrays. */
  private skipEmpty(): void {
    while (this.head < this.items.length && this.items[this.head] === undefined) this.head++;
    if (this.head === this.items.length) {
      this.base += this.head;
      this.head = 0;
      this.at.length = 0;
      this.items.length = 0;
    } else if (this.head >= 1024 && this.head * 2 >= this.items.length) {
      this.base += this.head;
      this.at.splice(0, this.head);
      this.items.splice(0, this.head);
      this.head = 0;
    }
  }
}

/**
 * The timeouts of many requests in flight without a timer each: one queue and one timer per
 * duration (requests of one client mostly share their timeout). Adding and cancelling cost an
 * array write; a timer fires at most once per deadline that is due (or once per duration when all
 * were cancelled). Nothing waiting, no timer holds the process.
 */
export class Deadlines {
  private readonly lanes = new Map<number, Lane>();
  private readonly retire = (lane: Lane) => {
    if (this.lanes.get(lane.ms) === lane) this.lanes.delete(lane.ms);
  };

  constructor(private readonly now: () => number = () => performance.now()) {}

  /** `item.expire()` is called in `ms` milliseconds unless it is cancelled first. */
  add(ms: number, item: Waiting): void {
    let lane = this.lanes.get(ms);
    if (!lane) this.lanes.set(ms, (lane = new Lane(ms, this.now, this.retire)));
    lane.add(item);
  }

  /** The wait is over (answered, failed): its deadline no longer counts. Harmless when already over. */
  cancel(item: Waiting): void {
    item.lane?.cancel(item);
  }

  /** Entries still waiting, and the durations that have a queue (for tests). */
  get waiting(): number {
    let count = 0;
    for (const lane of this.lanes.values()) count += lane.live;
    return count;
  }

  get lanesKept(): number {
    return this.lanes.size;
  }
}
