// Project: a site with its time zone, currency and data sources; the `projects` connection (selection by key,
// cursor paging, total count) and `project(key)`.
import { pageByKey, type Page } from '../../domain/paging.ts';
import { todayInZone } from '../../domain/time-zone.ts';
import { notFound } from '../../errors/app-error.ts';
import type { ProjectRecord } from '../../store/projects-repository.ts';
import { builder } from '../builder.ts';
import { MAX_REPORTS_PER_QUERY } from '../report-budget.ts';
import { DataSourcesRef } from './data-source.ts';

export const ProjectRef = builder.objectRef<ProjectRecord>('Project').implement({
  description: 'A site whose analytics and search data Siteline reads. Its data are its fields, each with the arguments of its REST endpoint.',
  fields: (t) => ({
    key: t.exposeString('key', { description: 'The project key every endpoint and tool takes.' }),
    name: t.exposeString('name', { description: 'Display name.' }),
    domain: t.exposeString('domain', { description: 'The site’s domain.' }),
    timezone: t.exposeString('timezone', { description: 'IANA time zone; periods are calendar days in it.' }),
    currency: t.exposeString('currency', { description: 'ISO 4217 currency of money values.' }),
    today: t.field({ type: 'Date', description: "Today's date in the project's time zone.", resolve: (p, _args, ctx) => todayInZone(p.timezone, ctx.services.clock()) }),
    dataSources: t.field({ type: DataSourcesRef, description: 'The three provider slots, connected or not.', resolve: (p, _args, ctx) => ctx.store.sourcesOf.load(p.id) }),
  }),
});

const ProjectEdgeRef = builder.objectRef<{ node: ProjectRecord; cursor: string }>('ProjectEdge').implement({
  description: 'A project of a page, with its cursor.',
  fields: (t) => ({
    cursor: t.exposeString('cursor', { description: 'Pass as `after` to start the next page after this project.' }),
    node: t.field({ type: ProjectRef, description: 'The project.', resolve: (e) => e.node }),
  }),
});

const PageInfoRef = builder.objectRef<Page<ProjectRecord>>('PageInfo').implement({
  description: 'Where a page is in the whole list.',
  fields: (t) => ({
    hasNextPage: t.exposeBoolean('hasNextPage', { description: 'More projects follow this page.' }),
    hasPreviousPage: t.exposeBoolean('hasPreviousPage', { description: 'Projects precede this page.' }),
    startCursor: t.string({ nullable: true, description: 'The cursor of the first project; null on an empty page.', resolve: (p) => (p.items[0] ? p.cursorOf(p.items[0]) : null) }),
    endCursor: t.string({ nullable: true, description: 'The cursor of the last project (pass as `after` for the next page); null on an empty page.', resolve: (p) => (p.items.at(-1) ? p.cursorOf(p.items.at(-1)!) : null) }),
  }),
});

const ProjectConnectionRef = builder.objectRef<Page<ProjectRecord>>('ProjectConnection').implement({
  description: `A page of projects, sorted by key. The report budget (${MAX_REPORTS_PER_QUERY} provider reports) is per request, so per page: a page costs its projects times the reports each asks for.`,
  fields: (t) => ({
    totalCount: t.exposeInt('totalCount', { description: 'Projects selected (by `keys`, or all you may read), on every page together: a count.' }),
    nodes: t.field({ type: [ProjectRef], description: 'The projects of this page.', resolve: (p) => p.items }),
    edges: t.field({ type: [ProjectEdgeRef], description: 'The projects of this page, each with its cursor.', resolve: (p) => p.items.map((node) => ({ node, cursor: p.cursorOf(node) })) }),
    pageInfo: t.field({ type: PageInfoRef, description: 'Whether more pages follow, and the cursors.', resolve: (p) => p }),
  }),
});

builder.queryField('projects', (t) =>
  t.field({
    type: ProjectConnectionRef,
    description: 'Projects the caller may read, sorted by key: all of them, or those named in `keys`, a page at a time.',
    args: {
      keys: t.arg.stringList({ description: 'Only these projects (keys you cannot read are left out, as unknown ones are).' }),
      first: t.arg.int({ description: 'Projects per page, 1–100; absent: every project after `after`. Size pages to the report budget (extensions.cost).' }),
      after: t.arg.string({ description: 'The `endCursor` of the previous page.' }),
    },
    resolve: async (_root, { keys, first, after }, ctx) => {
      const visible = await ctx.store.visibleProjects();
      const selected = keys ? visible.filter((p) => keys.includes(p.key)) : visible;
      return pageByKey(selected, (p) => p.key, { first, after });
    },
  }),
);

builder.queryField('project', (t) =>
  t.field({
    type: ProjectRef,
    nullable: true,
    description: 'One project by key; unknown and forbidden projects are the same not_found error.',
    args: { key: t.arg.string({ required: true, description: 'The project key.' }) },
    resolve: async (_root, { key }, ctx) => (await ctx.store.projectByKey(key)) ?? Promise.reject(notFound(`No project '${key}' is visible to you.`)),
  }),
);
