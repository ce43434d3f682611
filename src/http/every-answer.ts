// Work that follows every answer (recorded headers, metrics, the debug log), run where the app's entry points return
// rather than in h3's `onResponse`: h3 runs that hook as three promise reactions after every handler, even one that
// answered synchronously (`/healthz`), which was a visible share of a liveness probe's cost beyond a bare route's.
import type { H3, H3EventContext } from 'h3';

/** Sees each answer with its request's context; must not throw (the answer is already made). */
export type AfterAnswer = (response: Response, context: H3EventContext) => void;

/**
 * Wraps `app.request` and `app.fetch` (the entry `serve` and in-process callers use) so `after` sees every answer,
 * problem answers included, with the context h3 gave the request's event. A synchronous answer stays synchronous.
 */
export function runAfterEveryAnswer(app: H3, after: AfterAnswer): void {
  const dispatch = app.request;
  const settle = (response: Response, context: H3EventContext): Response => {
    after(response, context);
    return response;
  };
  app.request = (input, init, context = {}) => {
    const answer = dispatch(input, init, context);
    return answer instanceof Response ? settle(answer, context) : Promise.resolve(answer).then((response) => settle(response, context));
  };
  app.fetch = (request) => app.request(request);
}
