// Project: a site with its time zone, currency and data sources; the `projects` and `project` query fields.
import { todayInZone } from '../../domain/time-zone.ts';
import { notFound } from '../../errors/app-error.ts';
import type { ProjectRecord } from '../../store/projects-repository.ts';
import { builder } from '../builder.ts';
import { DataSourcesRef } from './data-source.ts';

export const ProjectRef = builder.objectRef<ProjectRecord>('Project').implement({
  description: 'A site whose analytics and search data Siteline reads.',
  fields: (t) => ({
    key: t.exposeString('key'),
    name: t.exposeString('name'),
    domain: t.exposeString('domain'),
    timezone: t.exposeString('timezone', { description: 'IANA time zone; periods are calendar days in it.' }),
    currency: t.exposeString('currency'),
    today: t.field({ type: 'Date', description: "Today's date in the project's time zone.", resolve: (p, _args, ctx) => todayInZone(p.timezone, ctx.services.clock()) }),
    dataSources: t.field({ type: DataSourcesRef, resolve: (p, _args, ctx) => ctx.store.sourcesOf.load(p.id) }),
  }),
});

builder.queryField('projects', (t) =>
  t.field({
    type: [ProjectRef],
    description: 'Projects the caller may read, sorted by key.',
    resolve: (_root, _args, ctx) => ctx.store.visibleProjects(),
  }),
);

builder.queryField('project', (t) =>
  t.field({
    type: ProjectRef,
    description: 'One project by key; unknown and forbidden projects are the same not_found error.',
    args: { key: t.arg.string({ required: true }) },
    resolve: async (_root, { key }, ctx) => (await ctx.store.projectByKey(key)) ?? Promise.reject(notFound(`No project '${key}' is visible to you.`)),
  }),
);
