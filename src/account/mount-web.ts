// Mounts the browser-facing account pages and the OAuth authorization server on the app.
import type { H3 } from 'h3';
import { mountOAuthRoutes } from '../auth/oauth/oauth-routes.ts';
import { mountAuthorizeRoutes } from './authorize-routes.ts';
import { mountSettingsRoutes } from './settings-routes.ts';
import { mountSignInRoutes } from './sign-in-routes.ts';
import type { WebDeps } from './web-deps.ts';

export function mountWeb(app: H3, deps: WebDeps): void {
  mountOAuthRoutes(app, deps.oauth, deps.logger);
  mountAuthorizeRoutes(app, deps);
  mountSignInRoutes(app, deps);
  mountSettingsRoutes(app, deps);
}
