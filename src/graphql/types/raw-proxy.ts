// RawProviderResponse: one read request to a provider in its native protocol (scope `raw`). `rawProxy` is the
// typed field of the graph; `rawProviderRequest` the internal one behind POST /raw/{analytics|engine1|engine2}/proxy,
// which takes the raw strings REST passes.
import { rawProxy, type RawProxyResult } from '../../reports/raw-proxy.ts';
import { builder, INTERNAL } from '../builder.ts';
import { MetaRef } from './envelope.ts';
import { RawProviderRef } from './enums.ts';

const RawProviderResponseRef = builder.objectRef<RawProxyResult>('RawProviderResponse').implement({
  description: "A provider's own answer, passed through unchanged.",
  fields: (t) => ({
    status: t.exposeInt('status', { description: 'The provider HTTP status (2xx; a 4xx becomes an upstream_rejected error).' }),
    contentType: t.exposeString('contentType', { description: "The provider's Content-Type." }),
    body: t.exposeString('body', { description: "The provider's JSON body, byte for byte." }),
    meta: t.field({ type: MetaRef, description: 'Freshness of the answer.', resolve: (r) => r.meta }),
  }),
});

const REQUEST_TEXT = '{project_key, path, body} as the REST raw proxy takes it (at most 64 KiB); anything else is a 400 naming body.';

builder.queryField('rawProxy', (t) =>
  t.field({
    type: RawProviderResponseRef,
    nullable: true,
    description: 'One read request to a provider in its native protocol, for a project the caller may read (needs the raw scope).',
    args: {
      provider: t.arg({ type: RawProviderRef, required: true, description: 'The provider whose protocol `request` speaks.' }),
      request: t.arg({ type: 'JSON', required: true, description: REQUEST_TEXT }),
      force: t.arg.boolean({ description: 'true bypasses the cache and refreshes it (limited to 30/hour per project).' }),
    },
    resolve: (_root, args, ctx) => rawProxy(ctx, { provider: args.provider, request: args.request, force: args.force === null || args.force === undefined ? undefined : args.force ? '1' : '0' }),
  }),
);

builder.queryField('rawProviderRequest', (t) =>
  t.field({
    type: RawProviderResponseRef,
    nullable: true,
    ...INTERNAL,
    description: 'rawProxy with the raw strings REST passes.',
    args: {
      provider: t.arg.string({ required: true, description: 'analytics, engine1 or engine2.' }),
      request: t.arg({ type: 'JSON', description: REQUEST_TEXT }),
      force: t.arg.string({ description: '1 bypasses the cache.' }),
    },
    resolve: (_root, args, ctx) => rawProxy(ctx, { provider: args.provider, request: args.request, force: args.force }),
  }),
);
