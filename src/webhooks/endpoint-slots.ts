/**
 * What a worker holds, per endpoint: the claimed deliveries waiting for a free slot, the attempts
 * under way, and their sum (the endpoint's load). At most `perEndpoint` attempts of one endpoint
 * run at once, so one slow receiver cannot take every slot of the worker; up to `prefetch` rounds
 * of them are held in hand, so the next attempts are ready when a slot frees, and an endpoint is
 * topped up once half of that has drained. Pure bookkeeping: the dispatcher claims, starts and
 * records; this only counts.
 */

export interface SlotLimits {
  /** Attempts of one endpoint under way at once. */
  perEndpoint: number;
  /** Rounds of an endpoint's attempts held in hand (waiting and under way). */
  prefetch: number;
}

export interface EndpointSlots<T extends { endpointId: string }> {
  /** Claimed deliveries in hand, waiting or under way, of every endpoint. */
  readonly held: number;
  /** A claimed delivery joins its endpoint's waiting line. */
  hold(delivery: T): void;
  /**
   * The endpoint's next waiting delivery if one of its slots is free, taken off the line; the
   * caller then either starts it (`started`) or lets it go unattempted (`letGo`).
   */
  next(endpointId: string): T | undefined;
  /** An attempt of the endpoint is under way. */
  started(endpointId: string): void;
  /** An attempt of the endpoint is over: its slot is free and the delivery no longer in hand. */
  finished(endpointId: string): void;
  /** A claimed delivery of the endpoint is no longer in hand (attempted, or let go unattempted). */
  letGo(endpointId: string): void;
  /** Whether the endpoint holds less than its top-up mark, so a claim may bring it more. */
  wantsMore(endpointId: string): boolean;
  /** Endpoints holding enough: a claim skips them. */
  full(): string[];
  /** How many more deliveries each endpoint in hand may take; `otherwise` for any other. */
  room(): { of: Map<string, number>; otherwise: number };
  /** Every waiting delivery, taken off the lines and out of hand (a stopping worker gives them back). */
  takeWaiting(): T[];
}

export function createEndpointSlots<T extends { endpointId: string }>(limits: SlotLimits): EndpointSlots<T> {
  const bound = limits.prefetch * limits.perEndpoint;
  const topUpBelow = bound / 2;
  let held = 0;
  const load = new Map<string, number>();
  const waiting = new Map<string, T[]>();
  const sending = new Map<string, number>();

  const decrement = (counts: Map<string, number>, endpointId: string): number => {
    const left = (counts.get(endpointId) ?? 1) - 1;
    if (left <= 0) counts.delete(endpointId);
    else counts.set(endpointId, left);
    return left;
  };

  const slots: EndpointSlots<T> = {
    get held() {
      return held;
    },
    hold(delivery) {
      held++;
      load.set(delivery.endpointId, (load.get(delivery.endpointId) ?? 0) + 1);
      const line = waiting.get(delivery.endpointId);
      if (line) line.push(delivery);
      else waiting.set(delivery.endpointId, [delivery]);
    },
    next(endpointId) {
      const line = waiting.get(endpointId);
      if (line === undefined || (sending.get(endpointId) ?? 0) >= limits.perEndpoint) return undefined;
      const delivery = line.shift();
      if (line.length === 0) waiting.delete(endpointId);
      return delivery;
    },
    started(endpointId) {
      sending.set(endpointId, (sending.get(endpointId) ?? 0) + 1);
    },
    finished(endpointId) {
      decrement(sending, endpointId);
      slots.letGo(endpointId);
    },
    letGo(endpointId) {
      held--;
      decrement(load, endpointId);
    },
    wantsMore(endpointId) {
      return (load.get(endpointId) ?? 0) < topUpBelow;
    },
    full() {
      return [...load].filter(([, n]) => n >= topUpBelow).map(([id]) => id);
    },
    room() {
      return { of: new Map([...load].map(([id, n]) => [id, bound - n])), otherwise: bound };
    },
    takeWaiting() {
      const taken = [...waiting.values()].flat();
      waiting.clear();
      for (const delivery of taken) slots.letGo(delivery.endpointId);
      return taken;
    },
  };
  return slots;
}
