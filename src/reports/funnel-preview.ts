// Funnel preview (the dashboard's editor): users per step of a draft definition, validated exactly as a stored
// funnel is, before anything is saved.
import type { ReportDeps } from './report-deps.ts';
import { validateFunnelSteps, type FunnelStep } from '../store/funnels-repository.ts';
import { runFunnelSteps, type FunnelRun } from './funnel-results.ts';

export interface FunnelPreviewArgs {
  project: string;
  steps: readonly FunnelStep[];
  period?: string | null;
  force?: string | null;
}

export async function funnelPreview(ctx: ReportDeps, args: FunnelPreviewArgs): Promise<FunnelRun> {
  return runFunnelSteps(ctx, { ...args, steps: validateFunnelSteps(args.steps) });
}
