// DataSource: one provider's connection to a project, as the contract shows it (neutral word, status, ids), with the
// analytics property's own time zone and currency when the provider has told them.
import { SOURCE_DISPLAY_NAMES, type Source } from '../../domain/sources.ts';
import type { DataSourceRecord } from '../../store/data-sources-repository.ts';
import { builder } from '../builder.ts';
import { DataSourceNameRef, DataSourceStatusRef } from './enums.ts';

export interface DataSourceShape {
  source: Source;
  record: DataSourceRecord | undefined;
}

export const DataSourceRef = builder.objectRef<DataSourceShape>('DataSource').implement({
  description: 'A provider connection of a project. `status` reflects the last upstream outcome.',
  fields: (t) => ({
    source: t.field({ type: DataSourceNameRef, description: 'Which provider this slot is for.', resolve: ({ source }) => source }),
    connected: t.boolean({ description: 'Whether a property or site is connected.', resolve: ({ record }) => record !== undefined }),
    status: t.field({ type: DataSourceStatusRef, description: 'The last upstream outcome.', resolve: ({ record }) => record?.status ?? 'not_connected' }),
    message: t.string({ nullable: true, description: 'Why the status is `error`; null otherwise.', resolve: ({ record }) => (record?.status === 'error' ? record.statusMessage : null) }),
    displayName: t.string({ description: "The provider's product name (human text).", resolve: ({ source }) => SOURCE_DISPLAY_NAMES[source] }),
    propertyId: t.string({ nullable: true, description: 'analytics: the property id; null otherwise.', resolve: ({ record }) => record?.propertyId ?? null }),
    siteUrl: t.string({ nullable: true, description: 'engine1 and engine2: the site; null otherwise.', resolve: ({ record }) => record?.siteUrl ?? null }),
    timezone: t.string({
      nullable: true,
      description: "analytics: the property's reporting time zone (IANA), which analytics days follow; null until the provider has answered once, and for the engines.",
      resolve: ({ record }) => record?.timeZone ?? null,
    }),
    currency: t.string({
      nullable: true,
      description: "analytics: the property's currency (ISO 4217), the unit of revenue metrics; null until the provider has answered once, and for the engines.",
      resolve: ({ record }) => record?.currencyCode ?? null,
    }),
  }),
});

export const DataSourcesRef = builder.objectRef<DataSourceRecord[]>('DataSources').implement({
  description: 'The three provider slots of a project, connected or not.',
  fields: (t) => ({
    analytics: t.field({ type: DataSourceRef, description: 'Web analytics (Google Analytics 4).', resolve: (records) => slot(records, 'analytics') }),
    engine1: t.field({ type: DataSourceRef, description: 'Search engine 1 (Google Search Console).', resolve: (records) => slot(records, 'engine1') }),
    engine2: t.field({ type: DataSourceRef, description: 'Search engine 2 (Bing Webmaster Tools).', resolve: (records) => slot(records, 'engine2') }),
  }),
});

function slot(records: DataSourceRecord[], source: Source): DataSourceShape {
  return { source, record: records.find((r) => r.source === source) };
}
