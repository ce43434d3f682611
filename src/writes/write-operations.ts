// Every write operation of the write service, by name: the list the audit test walks (each must leave its audit
// entry), and which it compares with what the writes modules export, so a new write cannot be added unaudited.
import { acceptInvitation, declineInvitation, grantAccess, inviteToProject, removeAccess, setMemberRole, withdrawInvitation } from './access-writes.ts';
import { createAccountAsOperator, inviteTeammate, joinByInvite, setPassword, setUpOwner, signUp, withdrawTeamInvite } from './account-writes.ts';
import { createFunnel, deleteFunnel, editFunnel, renameFunnel } from './funnel-writes.ts';
import { createKey, revokeApp, revokeKey, rotateKey } from './key-writes.ts';
import { createProject, deleteProject, recoverProject, setBrandTerms, updateProject } from './project-writes.ts';
import { connectSources, disconnectSources } from './source-writes.ts';
import { addRecipient, addWebhook, createSubscription, deleteSubscription } from './subscription-writes.ts';

export const WRITE_OPERATIONS = {
  createProject,
  updateProject,
  setBrandTerms,
  deleteProject,
  recoverProject,
  inviteToProject,
  withdrawInvitation,
  setMemberRole,
  removeAccess,
  grantAccess,
  acceptInvitation,
  declineInvitation,
  connectSources,
  disconnectSources,
  createFunnel,
  editFunnel,
  renameFunnel,
  deleteFunnel,
  createSubscription,
  deleteSubscription,
  addRecipient,
  addWebhook,
  createKey,
  revokeKey,
  rotateKey,
  revokeApp,
  setUpOwner,
  signUp,
  joinByInvite,
  inviteTeammate,
  withdrawTeamInvite,
  createAccountAsOperator,
  setPassword,
} as const;

export type WriteOperation = keyof typeof WRITE_OPERATIONS;
