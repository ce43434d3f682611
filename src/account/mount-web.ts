// Mounts the browser-facing account pages and the OAuth authorization server on the app. A database outage on
// a page is a page (503, Retry-After, "nothing was changed"), not problem JSON a browser would show raw.
import type { H3 } from 'h3';
import { isDependencyUnavailable, DEPENDENCY_RETRY_AFTER_SECONDS } from '../errors/app-error.ts';
import { newNonce } from './html.ts';
import { errorPage } from './sign-in-page.ts';
import { mountOAuthRoutes } from '../auth/oauth/oauth-routes.ts';
import { mountAuthorizeRoutes } from './authorize-routes.ts';
import { mountSettingsRoutes } from './settings-routes.ts';
import { mountSignInRoutes } from './sign-in-routes.ts';
import type { WebDeps } from './web-deps.ts';

export function mountWeb(app: H3, deps: WebDeps): void {
  app.use('/account/**', async (_event, next) => {
    try {
      return await next();
    } catch (error) {
      if (!isDependencyUnavailable(error) && !isDependencyUnavailable((error as { cause?: unknown } | undefined)?.cause)) throw error;
      const message = 'Siteline cannot reach its database right now, so nothing was changed. Please try again in a minute.';
      return errorPage({ title: 'Temporarily unavailable', message, status: 503, nonce: newNonce(), secure: deps.sessions.secure, headers: { 'retry-after': String(DEPENDENCY_RETRY_AFTER_SECONDS) } });
    }
  });
  mountOAuthRoutes(app, deps.oauth, deps.logger);
  mountAuthorizeRoutes(app, deps);
  mountSignInRoutes(app, deps);
  mountSettingsRoutes(app, deps);
}
