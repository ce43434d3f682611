// DataSource: one provider's connection to a project, as the contract shows it (neutral word, status, ids).
import { SOURCE_DISPLAY_NAMES, type Source } from '../../domain/sources.ts';
import type { DataSourceRecord } from '../../store/data-sources-repository.ts';
import { builder } from '../builder.ts';

export interface DataSourceShape {
  source: Source;
  record: DataSourceRecord | undefined;
}

export const DataSourceStatus = builder.enumType('DataSourceStatus', {
  description: 'ok: a call with the stored credential succeeded last; error: the provider refused it (see `message`); pending: connected, but no call with its credential has succeeded yet; not_connected.',
  values: { ok: { value: 'ok' }, error: { value: 'error' }, pending: { value: 'pending' }, not_connected: { value: 'not_connected' } } as const,
});

export const DataSourceRef = builder.objectRef<DataSourceShape>('DataSource').implement({
  description: 'A provider connection of a project. `status` reflects the last upstream outcome.',
  fields: (t) => ({
    connected: t.boolean({ resolve: ({ record }) => record !== undefined }),
    status: t.field({ type: DataSourceStatus, resolve: ({ record }) => record?.status ?? 'not_connected' }),
    message: t.string({ nullable: true, description: 'Why the status is `error`.', resolve: ({ record }) => (record?.status === 'error' ? record.statusMessage : null) }),
    displayName: t.string({ resolve: ({ source }) => SOURCE_DISPLAY_NAMES[source] }),
    propertyId: t.string({ nullable: true, resolve: ({ record }) => record?.propertyId ?? null }),
    siteUrl: t.string({ nullable: true, resolve: ({ record }) => record?.siteUrl ?? null }),
  }),
});

export const DataSourcesRef = builder.objectRef<DataSourceRecord[]>('DataSources').implement({
  description: 'The three provider slots of a project, connected or not.',
  fields: (t) => ({
    analytics: t.field({ type: DataSourceRef, resolve: (records) => slot(records, 'analytics') }),
    engine1: t.field({ type: DataSourceRef, resolve: (records) => slot(records, 'engine1') }),
    engine2: t.field({ type: DataSourceRef, resolve: (records) => slot(records, 'engine2') }),
  }),
});

function slot(records: DataSourceRecord[], source: Source): DataSourceShape {
  return { source, record: records.find((r) => r.source === source) };
}
