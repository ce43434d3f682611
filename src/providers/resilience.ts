// One resilience pipeline for every provider call: deadline, circuit breaker per (provider, credential, property
// or site), retries with full-jitter backoff honouring Retry-After, per-attempt timeout, outcome reporting.
import {
  BrokenCircuitError,
  ConsecutiveBreaker,
  DelegateBackoff,
  ExponentialBackoff,
  TaskCancelledError,
  TimeoutStrategy,
  circuitBreaker,
  fullJitterGenerator,
  handleWhen,
  retry,
  timeout,
  wrap,
} from 'cockatiel';
import type { CircuitBreakerPolicy, IBackoff, IRetryBackoffContext } from 'cockatiel';
import { AppError, isAppError } from '../errors/app-error.ts';
import type { Source } from '../domain/sources.ts';
import { SOURCE_DISPLAY_NAMES } from '../domain/sources.ts';
import type { FailureVerdict } from './upstream-errors.ts';
import { SlotWaitTimeout, type ConcurrencyLimiter } from '../limits/concurrency.ts';
import { giveBack } from '../limits/event-loop-slice.ts';
import { busyVerdict, MalformedAnswer, malformedVerdict, retryAfterHeader, upstreamTimeoutVerdict } from './upstream-errors.ts';

export interface ResilienceOptions {
  attemptTimeoutMs: number;
  deadlineMs: number;
  maxAttempts: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** Consecutive failed requests (after their retries) that open the circuit. */
  breakerThreshold: number;
  breakerHalfOpenAfterMs: number;
}

export const DEFAULT_RESILIENCE: Readonly<ResilienceOptions> = Object.freeze({
  attemptTimeoutMs: 10_000,
  deadlineMs: 25_000,
  maxAttempts: 3,
  backoffInitialMs: 250,
  backoffMaxMs: 4_000,
  breakerThreshold: 5,
  breakerHalfOpenAfterMs: 30_000,
});

export type OutcomeStatus = 'ok' | 'error';
export interface OutcomeContext {
  /** The property id or site URL the data-source client is bound to. */
  target: string;
  /** Non-secret identity of the credential (a hash). */
  credentialId: string;
  /** Error code when status is `error`. */
  code?: string;
}
/** Lets the app record the data source's last upstream outcome. */
export type OutcomeHook = (source: Source, status: OutcomeStatus, message: string, context: OutcomeContext) => void;

/** Structural subset of a pino logger; never handed URLs, tokens or keys. */
export interface ProviderLogger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

export interface ResilientCall<T, A = T> {
  source: Source;
  /** Operation name for logs, e.g. `runReport`. Never a URL. */
  operation: string;
  target: string;
  credentialId: string;
  attempt: (signal: AbortSignal) => Promise<A>;
  /**
   * Reads a successful attempt's answer into what the call returns (a page of 25,000 rows, checked and converted in
   * slices of the event loop). It runs after the attempt, outside its timeout and retries: the time the provider
   * took is what they bound, not ours. A MalformedAnswer here is the provider's 502 as it would be in the attempt.
   */
  read?: (answer: A) => Promise<T>;
  /** The provider's error mapping (its `errors.ts`). */
  classify: (error: unknown) => FailureVerdict;
}

export interface Resilience {
  execute<T, A = T>(call: ResilientCall<T, A>): Promise<T>;
}

export interface ResilienceHooks {
  logger?: ProviderLogger;
  onOutcome?: OutcomeHook;
  /** A cap on concurrent attempts per provider target (GA: 10 concurrent requests per property), if any. */
  concurrencyFor?: (source: Source) => ConcurrencyLimiter | undefined;
}

/** Thrown inside the policy chain so retry and breaker can read the verdict. */
class AttemptFailure extends Error {
  readonly verdict: FailureVerdict;
  constructor(verdict: FailureVerdict) {
    super(verdict.error.message);
    this.name = 'AttemptFailure';
    this.verdict = verdict;
  }
}

const isRetryable = (error: unknown): boolean =>
  error instanceof TaskCancelledError || (error instanceof AttemptFailure && error.verdict.retryable);
const isUpstreamFault = (error: unknown): boolean =>
  error instanceof TaskCancelledError || (error instanceof AttemptFailure && error.verdict.upstreamFault);
const hintOf = (context: IRetryBackoffContext<unknown>): number | undefined =>
  'error' in context.result && context.result.error instanceof AttemptFailure
    ? context.result.error.verdict.retryAfterMs
    : undefined;

interface Breaker {
  policy: CircuitBreakerPolicy;
  openedAt: number;
}

export function createResilience(
  overrides: Partial<ResilienceOptions> = {},
  hooks: ResilienceHooks = {},
): Resilience {
  const options: ResilienceOptions = { ...DEFAULT_RESILIENCE, ...overrides };
  const breakers = new Map<string, Breaker>();

  function breakerFor(key: string): Breaker {
    let entry = breakers.get(key);
    if (entry === undefined) {
      const policy = circuitBreaker(handleWhen(isUpstreamFault), {
        halfOpenAfter: options.breakerHalfOpenAfterMs,
        breaker: new ConsecutiveBreaker(options.breakerThreshold),
      });
      const created: Breaker = { policy, openedAt: 0 };
      policy.onBreak(() => {
        created.openedAt = Date.now();
      });
      breakers.set(key, created);
      entry = created;
    }
    return entry;
  }

  function pipeline(call: ResilientCall<unknown, unknown>, startedAt: number) {
    const exponential = new ExponentialBackoff({
      generator: fullJitterGenerator,
      initialDelay: options.backoffInitialMs,
      maxDelay: options.backoffMaxMs,
    });
    const backoff = new DelegateBackoff<IRetryBackoffContext<unknown>, IBackoff<unknown> | undefined>(
      (context, previous) => {
        const next = previous ? previous.next(context) : exponential.next();
        return { delay: hintOf(context) ?? next.duration, state: next };
      },
    );
    const retries = retry(handleWhen(isRetryable), { maxAttempts: options.maxAttempts - 1, backoff });
    retries.onRetry((event) => {
      const reason = 'error' in event ? event.error : undefined;
      hooks.logger?.warn(
        {
          provider: call.source,
          operation: call.operation,
          attempt: event.attempt,
          delayMs: event.delay,
          status: reason instanceof AttemptFailure ? reason.verdict.status : undefined,
          code: reason instanceof AttemptFailure ? reason.verdict.error.code : 'upstream_timeout',
        },
        'provider call failed, retrying',
      );
    });
    return {
      retries,
      // A Retry-After that does not fit in what is left of the deadline ends the retries now.
      fits: (verdict: FailureVerdict) =>
        verdict.retryAfterMs === undefined ||
        Date.now() - startedAt + verdict.retryAfterMs < options.deadlineMs - 50,
    };
  }

  async function execute<T, A = T>(call: ResilientCall<T, A>): Promise<T> {
    const startedAt = Date.now();
    // One failing property must not pause the other projects that share its credential.
    const breaker = breakerFor(`${call.source}:${call.credentialId}:${call.target}`);
    let attempts = 0;
    const { retries, fits } = pipeline(call as ResilientCall<unknown, unknown>, startedAt);
    const attemptTimeout = timeout(options.attemptTimeoutMs, TimeoutStrategy.Aggressive);
    const deadline = timeout(options.deadlineMs, TimeoutStrategy.Aggressive);
    const policy = wrap(breaker.policy, deadline, retries, attemptTimeout);
    try {
      const value = await policy.execute(async ({ signal }) => {
        if (signal.aborted) throw new TaskCancelledError('deadline reached before the attempt');
        attempts += 1;
        try {
          const limiter = hooks.concurrencyFor?.(call.source);
          return await (limiter ? limiter.run(`${call.source}:${call.target}`, () => call.attempt(signal), signal) : call.attempt(signal));
        } catch (error) {
          const verdict = signal.aborted
            ? upstreamTimeoutVerdict(call.source)
            : error instanceof SlotWaitTimeout
              ? busyVerdict(call.source, error.retryAfterMs)
              : error instanceof MalformedAnswer
                ? malformedVerdict(call.source, error.message)
                : call.classify(error);
          const spent = attempts >= (verdict.maxAttempts ?? options.maxAttempts);
          throw new AttemptFailure(verdict.retryable && (spent || !fits(verdict)) ? { ...verdict, retryable: false } : verdict);
        }
      });
      const answer = call.read ? await readAnswer(call, value as A) : (value as unknown as T);
      hooks.onOutcome?.(call.source, 'ok', '', { target: call.target, credentialId: call.credentialId });
      return answer;
    } catch (error) {
      const appError = toAppError(error, call.source, breaker, options);
      hooks.logger?.debug(
        { provider: call.source, operation: call.operation, code: appError.code, status: appError.status },
        'provider call failed',
      );
      if (isOutcomeError(appError)) {
        hooks.onOutcome?.(call.source, 'error', appError.message, {
          target: call.target,
          credentialId: call.credentialId,
          code: appError.code,
        });
      }
      throw appError;
    }
  }

  return { execute };
}

async function readAnswer<T, A>(call: ResilientCall<T, A>, answer: A): Promise<T> {
  // Parsing a large answer was work enough for one turn of the event loop: others go first, then it is read.
  await giveBack();
  try {
    return await call.read!(answer);
  } catch (error) {
    throw error instanceof MalformedAnswer ? new AttemptFailure(malformedVerdict(call.source, error.message)) : error;
  }
}

function toAppError(error: unknown, source: Source, breaker: Breaker, options: ResilienceOptions): AppError {
  const name = SOURCE_DISPLAY_NAMES[source];
  if (error instanceof AttemptFailure) return error.verdict.error;
  if (error instanceof BrokenCircuitError) {
    const remaining = Math.max(1000, breaker.openedAt + options.breakerHalfOpenAfterMs - Date.now());
    return new AppError('upstream_unavailable', `${name} is failing repeatedly; calls are paused for a while.`, {
      provider: source,
      headers: retryAfterHeader(remaining),
    });
  }
  if (error instanceof TaskCancelledError) {
    return new AppError('upstream_timeout', `${name} did not answer in time.`, { provider: source });
  }
  if (isAppError(error)) return error;
  // Unknown failures are not described: their text could carry request details.
  return new AppError('upstream_error', `${name} call failed unexpectedly.`, { provider: source });
}

/** Caller mistakes (invalid parameters, raw pass-through 4xx) say nothing about the data source's health. */
function isOutcomeError(error: AppError): boolean {
  return error.code !== 'invalid_parameter' && error.code !== 'upstream_rejected' && error.code !== 'not_found';
}
