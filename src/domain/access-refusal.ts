// How a refusal by the role policy reads: the role the account holds, what the action is, and which roles it needs.
import { AppError } from '../errors/app-error.ts';
import { PROJECT_POLICY, PROJECT_ROLES, type ProjectAction, type Standing } from './access-policy.ts';

const ACTION_WORDS: Record<ProjectAction, string> = {
  'project.read': 'reading it',
  'report.refresh': 'refreshing its data (force=1)',
  'funnel.create': 'creating a funnel',
  'funnel.edit': 'editing a funnel',
  'funnel.delete': 'deleting a funnel',
  'brand_terms.edit': 'changing its brand terms',
  'subscription.manage': 'managing its reports, alerts and webhooks',
  'project.edit': 'changing its settings',
  'project.delete': 'deleting it',
  'source.connect': 'connecting a data source',
  'source.disconnect': 'disconnecting a data source',
  'access.invite': 'sharing it',
  'access.withdraw': 'withdrawing an invitation',
  'access.set_role': 'changing roles',
  'access.remove': 'removing access',
  'audit.read': 'reading its audit log',
  'project.recover': 'recovering it',
};

export function describeAction(action: ProjectAction): string {
  return ACTION_WORDS[action];
}

/** 403 insufficient_role naming the account's role on the project and the roles the action needs. */
export function roleRefusal(action: ProjectAction, standing: Standing, projectKey: string, param = 'project'): AppError {
  const needed = PROJECT_POLICY[action].filter((s) => (PROJECT_ROLES as readonly string[]).includes(s));
  return new AppError('insufficient_role', `Your role on the project '${projectKey}' is ${standing}; ${describeAction(action)} needs the ${needed.join(' or ')} role.`, { param });
}
