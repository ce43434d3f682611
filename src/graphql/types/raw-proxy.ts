// RawProviderResponse: the `rawProxy` query field behind POST /raw/{analytics|engine1|engine2}/proxy (scope `raw`).
import { rawProxy, type RawProxyResult } from '../../reports/raw-proxy.ts';
import { builder } from '../builder.ts';
import { MetaRef } from './envelope.ts';

const RawProviderResponseRef = builder.objectRef<RawProxyResult>('RawProviderResponse').implement({
  description: "A provider's own answer, passed through unchanged.",
  fields: (t) => ({
    status: t.exposeInt('status', { description: 'The provider HTTP status (2xx; a 4xx becomes an upstream_rejected error).' }),
    contentType: t.exposeString('contentType'),
    body: t.exposeString('body', { description: "The provider's JSON body, byte for byte." }),
    meta: t.field({ type: MetaRef, resolve: (r) => r.meta }),
  }),
});

builder.queryField('rawProxy', (t) =>
  t.field({
    type: RawProviderResponseRef,
    description: 'One read request to a provider in its native protocol, for a project the caller may read (needs the raw scope).',
    args: {
      provider: t.arg.string({ required: true, description: 'analytics, engine1 or engine2.' }),
      request: t.arg({ type: 'JSON', description: '{project_key, path, body}; anything else is a 400 naming body.' }),
      force: t.arg.string(),
    },
    resolve: (_root, args, ctx) => rawProxy(ctx, { provider: args.provider, request: args.request, force: args.force }),
  }),
);
