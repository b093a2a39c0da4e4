// `k6/metrics`: every metric keeps what was added, by name.
export const metrics = {};

class Metric {
  constructor(name) {
    this.name = name;
    metrics[name] ??= [];
  }

  add(value) {
    metrics[this.name].push(value);
  }
}

export class Counter extends Metric {}
export class Rate extends Metric {}
export class Trend extends Metric {}
