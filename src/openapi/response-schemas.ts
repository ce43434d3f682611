// The body schemas of each REST route, keyed by stored operation: responses from src/contract/responses.ts, and
// the raw proxies' request body. A route without a response schema yet is documented with a generic object.
import { createRequire } from 'node:module';
import * as z from 'zod';
import {
  ComparedSchema,
  FunnelSchema,
  FunnelStepSchema,
  MetaSchema,
  MetricValueSchema,
  PeriodSchema,
  ProjectSchema,
  WarningSchema,
} from '../contract/responses.ts';
import * as contract from '../contract/responses.ts';

/**
 * Response body schemas by stored operation, found by the contract's naming convention: operation `SiteSummary`
 * ↔ export `SiteSummaryResponse`. A schema added to src/contract/responses.ts is published without touching this file.
 */
export const RESPONSE_SCHEMAS: Readonly<Record<string, z.ZodType>> = Object.fromEntries(
  (Object.entries(contract) as [string, unknown][])
    .filter((entry): entry is [string, z.ZodType] => entry[0].endsWith('Response') && entry[1] instanceof z.ZodType)
    .map(([name, schema]) => [name.slice(0, -'Response'.length), schema]),
);

/** Building blocks shared by several responses, published once under components.schemas and referenced. */
export const SHARED_SCHEMAS: Readonly<Record<string, z.ZodType>> = {
  Period: PeriodSchema,
  Meta: MetaSchema,
  Warning: WarningSchema,
  Compared: ComparedSchema,
  MetricValue: MetricValueSchema,
  Project: ProjectSchema,
  Funnel: FunnelSchema,
  FunnelStep: FunnelStepSchema,
};

/** Routes without a schema yet: an open object, so clients are told nothing false. */
export const GENERIC_RESPONSE = z.looseObject({}).describe('A JSON object (its detailed schema is not published yet).');

/** The provider's native JSON, passed through unchanged by the raw proxies. */
// Provider JSON is free-form by nature: said explicitly (`additionalProperties: true`), unlike Siteline's own
// bodies, whose open objects are left without additionalProperties so generated clients get closed types.
export const PROVIDER_RESPONSE = z.looseObject({}).describe("The provider's native JSON response, byte for byte.").meta({ additionalProperties: true });

const RawProxyRequest = z
  .strictObject({
    project_key: z.string().describe('The project whose property or site the path must name.'),
    path: z.string().max(2048).describe('The provider path (see the endpoint description for the allowed forms).'),
    body: z.looseObject({}).optional().describe('The provider request body, passed on unchanged.').meta({ additionalProperties: true }),
  })
  .describe('At most 64 KiB, Content-Type application/json.');

export interface RequestBodySchema {
  schema: z.ZodType;
  example: unknown;
}

/** POST bodies (routes with `bodyVariable`), keyed by stored operation. Examples name the demo's own property and sites, so they work as sent. */
export const REQUEST_SCHEMAS: Readonly<Record<string, RequestBodySchema>> = {
  RawAnalyticsProxy: {
    schema: RawProxyRequest,
    example: {
      project_key: 'acme-shop',
      path: 'properties/314159265:runReport',
      body: { dateRanges: [{ startDate: '28daysAgo', endDate: 'yesterday' }], metrics: [{ name: 'sessions' }], dimensions: [{ name: 'country' }] },
    },
  },
  RawEngine1Proxy: {
    schema: RawProxyRequest,
    example: {
      project_key: 'acme-shop',
      path: 'sites/https%3A%2F%2Fwww.acme-shop.example%2F/searchAnalytics/query',
      body: { startDate: '2026-01-01', endDate: '2026-01-28', dimensions: ['query'], rowLimit: 10 },
    },
  },
  RawEngine2Proxy: {
    schema: RawProxyRequest,
    example: { project_key: 'acme-shop', path: 'GetRankAndTrafficStats' },
  },
};

export const GENERIC_REQUEST: RequestBodySchema = { schema: z.looseObject({}).describe('A JSON object.'), example: {} };

/**
 * One real answer per stored operation, recorded from the demo by `npm run docs:examples` (lists cut to three
 * items); a test re-records them and fails when the API has drifted from what the document shows.
 */
export const RESPONSE_EXAMPLES: Readonly<Record<string, unknown>> = createRequire(import.meta.url)('./recorded-examples.json') as Record<string, unknown>;
