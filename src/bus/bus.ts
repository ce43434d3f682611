// The invalidation bus contract: fire-and-forget messages to every instance, this one included.

export type BusHandler = (message: unknown) => void;

export interface PublishResult {
  /** `sent`: handed to Redis for the other instances; `failed`: only this instance got it; `local`: no Redis configured. */
  remote: 'sent' | 'failed' | 'local';
}

export interface Bus {
  /** Delivers to this instance's subscribers synchronously and to other instances through Redis. Never throws. */
  publish(channel: string, message: unknown): Promise<PublishResult>;
  /** Resolves once the subscription is live; the returned function unsubscribes. */
  subscribe(channel: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
