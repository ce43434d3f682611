// The per-execution provider loaders, created together (batching and dedupe live inside each; the cache below
// them is process-wide).
import { createAnalyticsLoader, type AnalyticsLoader } from './analytics-loader.ts';
import { createEngine1Loader, type Engine1Loader } from './engine1-loader.ts';
import { createEngine2Loader, type Engine2Loader } from './engine2-loader.ts';
import type { LoaderDeps } from './loader-deps.ts';

export interface ProviderLoaders {
  readonly analytics: AnalyticsLoader;
  readonly engine1: Engine1Loader;
  readonly engine2: Engine2Loader;
}

export function createProviderLoaders(deps: LoaderDeps): ProviderLoaders {
  return { analytics: createAnalyticsLoader(deps), engine1: createEngine1Loader(deps), engine2: createEngine2Loader(deps) };
}
