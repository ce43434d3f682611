// The report budget of /api/graphql is charged where reports are loaded, so every field that reads provider data
// pays for it — root fields, Project fields, nested ones (Funnel.results, SiteSummary.metric) — and the answer says
// what the request cost (`extensions.cost`). The fields are found by walking the schema (every field whose type
// carries `meta` is a report), so a field added later is held to the same test.
import { getNamedType, isEnumType, isObjectType, type GraphQLField } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicSchema as schema } from '../../src/graphql/schema.ts';
import { MAX_REPORTS_PER_QUERY } from '../../src/graphql/report-budget.ts';
import { createSandboxRuntime, type SandboxRuntime } from '../helpers/sandbox-runtime.ts';

interface GraphqlAnswer {
  data?: Record<string, any> | null;
  errors?: { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> }[];
  extensions?: { cost?: { reports: number; budget: number } };
}

let rt: SandboxRuntime;
let funnelKey: string;

beforeAll(async () => {
  rt = await createSandboxRuntime({ env: { DATABASE_URL: '' } });
  funnelKey = (await rt.get('/api/v1/projects/tiny-saas/funnels/list')).body.funnels[0].key;
});
afterAll(() => rt.dispose());

async function graphql(query: string): Promise<GraphqlAnswer> {
  const res = await rt.request('/api/graphql', { method: 'POST', key: rt.demo.apiKey, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) });
  return (await res.json()) as GraphqlAnswer;
}

const STEPS = '[{type: "page", match: "exact", value: "/"}, {type: "page", match: "begins_with", value: "/pricing"}]';
/** A value for each required argument a report field may have. */
const REQUIRED: Record<string, () => string> = {
  project: () => '"tiny-saas"',
  dimension: () => '"country"',
  steps: () => STEPS,
  funnel: () => `"${funnelKey}"`,
  provider: () => '"engine1"',
  request: () => '{project_key: "tiny-saas", path: "sites/https://app.tiny-saas.example//sitemaps"}',
};
function argsOf(owner: string, field: GraphQLField<unknown, unknown>): string {
  // Required arguments, and a dimension wherever one can be given (a breakdown without one is a 400).
  const required = field.args.filter((a) => a.type.toString().endsWith('!') || a.name === 'dimension').map((a) => {
    const value = REQUIRED[a.name];
    if (!value) throw new Error(`${owner}.${field.name}: add a value for its required argument ${a.name} to REQUIRED`);
    // An enum argument takes the same word unquoted.
    return `${a.name}: ${isEnumType(getNamedType(a.type)) ? value().replaceAll('"', '') : value()}`;
  });
  return required.length ? `(${required.join(', ')})` : '';
}

/** Every field of these types whose result is a report (its type has `meta`), as a query reading only it. */
function reportFields(): { name: string; query: string }[] {
  const wrap: Record<string, (inner: string) => string> = {
    Query: (inner) => `{ ${inner} }`,
    Project: (inner) => `{ project(key: "tiny-saas") { ${inner} } }`,
    Funnel: (inner) => `{ funnel(key: "${funnelKey}") { ${inner} } }`,
  };
  return Object.entries(wrap).flatMap(([owner, around]) => {
    const type = schema.getType(owner);
    if (!isObjectType(type)) throw new Error(owner);
    return Object.values(type.getFields())
      .filter((field) => {
        const result = getNamedType(field.type);
        return isObjectType(result) && 'meta' in result.getFields();
      })
      .map((field) => {
        return { name: `${owner}.${field.name}`, query: around(`${field.name}${argsOf(owner, field)} { meta { cache } }`) };
      });
  });
}

describe('the report budget', () => {
  it('charges every field that reads a report, root or nested, and says what the request cost', async () => {
    const fields = reportFields();
    expect(fields.map((f) => f.name)).toEqual(expect.arrayContaining(['Query.rawProxy', 'Project.summary', 'Project.changes', 'Project.anomalies', 'Project.searchOpportunities', 'Project.observedPages', 'Funnel.results']));
    for (const field of fields) {
      const answer = await graphql(field.query);
      expect(answer.errors, field.name).toBeUndefined();
      expect(answer.extensions?.cost?.reports, field.name).toBeGreaterThanOrEqual(1);
      expect(answer.extensions?.cost?.budget, field.name).toBe(MAX_REPORTS_PER_QUERY);
    }
    // A custom metric on the summary reads reports of its own, beyond the summary's.
    const summary = await graphql('{ project(key: "tiny-saas") { summary { sessions { value } } } }');
    const custom = await graphql('{ project(key: "tiny-saas") { summary { sessions { value } metric(name: "customEvent:credits_used") { value } } } }');
    expect(custom.extensions!.cost!.reports).toBeGreaterThan(summary.extensions!.cost!.reports);
  });

  it('charges each field of a query that mixes them: leaving any one out costs less', async () => {
    const mixed = [
      'p4: project(key: "tiny-saas") { changes(metric: "clicks") { meta { cache } } }',
      'p5: project(key: "tiny-saas") { searchOpportunities { meta { cache } } }',
      'p6: project(key: "tiny-saas") { summary(period: "7days") { meta { cache } } }',
      'project(key: "tiny-saas") { anomalies { meta { cache } } }',
      'p2: project(key: "tiny-saas") { changes { meta { cache } } }',
      'p3: project(key: "tiny-saas") { searchOpportunities(period: "7days") { meta { cache } } }',
      `funnel(key: "${funnelKey}") { results(period: "7days") { meta { cache } } }`,
    ];
    const all = await graphql(`{ ${mixed.join(' ')} }`);
    expect(all.errors).toBeUndefined();
    const cost = all.extensions!.cost!.reports;
    expect(cost).toBeLessThanOrEqual(MAX_REPORTS_PER_QUERY);
    for (const [i, field] of mixed.entries()) {
      const without = await graphql(`{ ${mixed.filter((_, j) => j !== i).join(' ')} }`);
      expect(without.extensions!.cost!.reports, field).toBeLessThan(cost);
    }
  });

  it('fails the fields past the budget with report_budget_exceeded; the rest still answers', async () => {
    const periods = ['7days', '28days', '90days', '180days', 'yesterday'];
    const query = `{ project(key: "tiny-saas") { ${periods.map((p, i) => `c${i}: changes(metric: "clicks", period: "${p}") { change { value } }`).join(' ')} } }`;
    const answer = await graphql(query);
    expect(answer.extensions?.cost).toEqual({ reports: MAX_REPORTS_PER_QUERY, budget: MAX_REPORTS_PER_QUERY });
    const refused = answer.errors ?? [];
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.extensions?.code === 'report_budget_exceeded')).toBe(true);
    expect(refused[0]!.message).toMatch(/budget of 30 provider reports/);
    const fields = answer.data!.project as Record<string, { change: { value: number } } | null>;
    const answered = Object.values(fields).filter((f) => f !== null);
    expect(answered.length).toBeGreaterThan(0);
    expect(answered.length + refused.length).toBe(periods.length);
    // The cost does not depend on the cache: a warm repeat is charged the same, and calls no provider.
    rt.sandbox.resetStats();
    expect((await graphql(query)).extensions?.cost?.reports).toBe(MAX_REPORTS_PER_QUERY);
    expect(rt.sandbox.stats().total).toBe(0);
  });
});
